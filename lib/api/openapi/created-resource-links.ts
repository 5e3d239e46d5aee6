import type { ApiRoute } from "../route";
import type { JsonObject } from "./response-headers";

/**
 * OpenAPI `links` from a creating route's 201 answer to every operation on what it created: the
 * routes at its `location` or below it (read, update, close, delete), each given the new
 * `data.id` as its `:id`. Generated clients and stateful testers follow these to chain a create
 * with its reads. A `location` that no GET route serves is a mistake in the route table: refused.
 */
export function createdResourceLinks(route: ApiRoute, routes: readonly ApiRoute[]): JsonObject | undefined {
  const location = route.location;
  if (!location) return undefined;
  if (!location.endsWith("/:id") || !routes.some((r) => r.method === "GET" && r.path === location)) {
    throw new Error(`${route.operationId}: location ${location} must be a GET route's path ending in /:id`);
  }
  const targets = routes.filter((r) => r.path === location || r.path.startsWith(`${location}/`));
  return Object.fromEntries(
    targets.map((target) => [
      target.operationId,
      {
        operationId: target.operationId,
        parameters: { id: "$response.body#/data/id" },
        description: `${target.summary}: the one this request created, by its \`data.id\`.`,
      },
    ]),
  );
}
