import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseQuery } from "@/lib/query-params";
import { readJsonBody } from "./read-json";
import { API_ROUTES } from "./app";
import type { ApiRoute } from "./route";
import { withSession } from "./with-session";

const NO_PARAMETERS = z.strictObject({});

/**
 * A /v1 operation served to the web app's pages under the session, the way Dub's withWorkspace
 * takes a key or a session: the route's one rule (permission, plan), its query, body and path
 * schemas (the same 400 field errors, the same 404 for a path value that names nothing), its
 * handler and so its pagination, with the signed-in user as the actor in live mode. Keys' extras
 * stay on /v1: rate limit, usage, idempotency, the response cache.
 */
export function sessionRoute(operationId: string) {
  const route = apiRoute(operationId);
  return withSession<Record<string, string>>(
    "user",
    async ({ request, params, actor, services, origin }) => {
      const query = parseQuery(new URL(request.url), route.query ?? NO_PARAMETERS);
      const body = route.body ? (await readJsonBody(request, route.body)).value : undefined;
      const parsedParams = route.params ? pathParams(route.params, params) : undefined;
      const result = await route.handler({ actor, key: null, query: route.query ? query : undefined, body, params: parsedParams, services, origin });
      return { data: "dataJson" in result ? JSON.parse(result.dataJson) : result.data, status: route.status ?? 200 };
    },
    { rule: route },
  );
}

function pathParams(schema: z.ZodObject, params: Record<string, string>): Record<string, unknown> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) throw new AppError("NOT_FOUND");
  return parsed.data;
}

/** The /v1 route declaring `operationId`, whose rule and schemas a web page's route reuses; a name no route declares stops the module loading. */
export function apiRoute(operationId: string): ApiRoute {
  const route = API_ROUTES.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`No /v1 route has operationId "${operationId}"`);
  return route;
}
