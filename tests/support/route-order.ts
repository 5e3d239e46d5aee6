import type { ApiRoute } from "@/lib/api/route";

/**
 * How late a route must run when the routes' examples are called one after another on one
 * account: what removes a resource last, before it what changes one irreversibly (POST on a
 * resource, e.g. closing a position), before that the reads and edits of created resources, and
 * first everything else, the creators among them.
 */
function stage(route: ApiRoute, routes: readonly ApiRoute[]): number {
  if (route.method === "DELETE") return 3;
  if (route.method === "POST" && route.params) {
    // Acting on what another such POST created (redelivering a webhook test event's delivery): after it.
    const creator = routes.find((r) => r.operationId === route.example?.createdBy);
    return creator && creator.method === "POST" && creator.params ? 2.5 : 2;
  }
  if (route.example?.createdBy) return 1;
  return 0;
}

/**
 * The routes in an order their examples can run in, one after another on one account: each after
 * the route that creates what it reads (`example.createdBy`), and what changes or removes a
 * resource after what only reads or edits it. Stable otherwise, so the app may list its routes in
 * any order.
 */
export function routesInExampleOrder(routes: readonly ApiRoute[]): ApiRoute[] {
  const ordered = routes
    .map((route, index) => ({ route, index }))
    .sort((a, b) => stage(a.route, routes) - stage(b.route, routes) || a.index - b.index)
    .map(({ route }) => route);
  for (const [position, route] of ordered.entries()) {
    const createdBy = route.example?.createdBy;
    if (!createdBy) continue;
    const creator = ordered.findIndex((r) => r.operationId === createdBy);
    if (creator < 0) throw new Error(`${route.operationId}: example.createdBy names no route (${createdBy})`);
    if (creator > position) throw new Error(`${route.operationId} cannot run after its creator ${createdBy}: the creator reads a created resource itself`);
  }
  return ordered;
}
