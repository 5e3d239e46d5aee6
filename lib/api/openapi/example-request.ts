import type { ApiRoute } from "../route";

/** The path and query string of a route's documented example request, e.g. /v1/opportunities?limit=5. */
export function examplePath(route: ApiRoute): string {
  const params = route.example?.params ?? {};
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.operationId}: example has no value for path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams(route.example?.query ?? {}).toString();
  return query ? `${path}?${query}` : path;
}

/** The method, headers and body of a route's documented example request (a JSON body when it has one). */
export function exampleInit(route: ApiRoute): { method: string; headers: Record<string, string>; body?: string } {
  if (!route.example?.body) return { method: route.method, headers: {} };
  return { method: route.method, headers: { "Content-Type": "application/json" }, body: JSON.stringify(route.example.body) };
}
