import type { ApiRoute } from "./route";

/** A creating route's `location` with the created resource's id in place of `:id`, e.g. /v1/simulations/sim_1. */
export function resourcePath(location: string, id: string): string {
  return location.replace(":id", encodeURIComponent(id));
}

/**
 * Sets `Location` on a creating route's 201 answer: the path that reads what was created (RFC
 * 9110 §10.2.2), relative to the service's origin as every /v1 path is. The id is read from the
 * answer's own `data.id` rather than from the handler, so an idempotent replay, which answers the
 * stored first response without running the handler, carries the same Location.
 */
export async function withLocation(route: ApiRoute, response: Response): Promise<Response> {
  if (!route.location || response.status !== 201) return response;
  const body = (await response.clone().json()) as { data?: { id?: unknown } };
  if (typeof body.data?.id === "string") response.headers.set("Location", resourcePath(route.location, body.data.id));
  return response;
}
