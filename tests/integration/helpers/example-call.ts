import { API_ROUTES, type ApiApp } from "@/lib/api/app";
import { exampleInit, examplePath } from "@/lib/api/openapi/example-request";
import type { ApiRoute } from "@/lib/api/route";

/**
 * The route with its example made real for `key`: a route reading a resource another route
 * creates (`example.createdBy`) gets that resource created first with the same key, and its id in
 * place of the documented placeholder. A creator that itself reads a created resource (a webhook
 * test event creates a delivery of an endpoint) is resolved first, its path parameters kept: the
 * new id takes the first parameter the creator's path does not have.
 */
export async function resolvedExample(app: ApiApp, route: ApiRoute, key: string): Promise<ApiRoute> {
  const createdBy = route.example?.createdBy;
  if (!createdBy) return route;
  const found = API_ROUTES.find((r) => r.operationId === createdBy);
  if (!found) throw new Error(`${route.operationId}: no route ${createdBy}`);
  const creator = await resolvedExample(app, found, key);
  const response = await callExample(app, creator, key);
  const body = (await response.json()) as { data?: { id?: string } };
  if (response.status !== (creator.status ?? 200) || !body.data?.id) throw new Error(`${createdBy} failed: ${JSON.stringify(body)}`);
  const inherited = creator.example?.params ?? {};
  const name = Object.keys(route.example?.params ?? {}).find((n) => !(n in inherited));
  return { ...route, example: { ...route.example, params: { ...route.example?.params, ...inherited, [name!]: body.data.id } } };
}

/** Sends the route's example request (method, body), at `path` when given (a variant of the example's). */
export function callExample(app: ApiApp, route: ApiRoute, key: string | undefined, path = examplePath(route)): Promise<Response> {
  const init = exampleInit(route);
  const headers: Record<string, string> = key ? { ...init.headers, Authorization: `Bearer ${key}` } : init.headers;
  return Promise.resolve(app.fetch(new Request(`http://localhost${path}`, { ...init, headers })));
}
