import { Hono, type Context } from "hono";
import { readHealth } from "@/lib/health";
import { errorBody } from "./envelope";
import { ApiError } from "./errors";
import { buildOpenApiDocument, OPENAPI_PATH } from "./openapi/openapi-document";
import { newRequestId } from "./request-id";
import { pathPattern, type ApiRoute } from "./route";
import { authVerifyRoute } from "./routes/auth-verify";
import { closePositionRoute } from "./routes/close-position";
import { createPositionRoute } from "./routes/create-position";
import { deletePositionRoute } from "./routes/delete-position";
import { createSimulationRoute } from "./routes/create-simulation";
import { exchangesRoute } from "./routes/exchanges";
import { fundingRatesRoute } from "./routes/funding-rates";
import { opportunitiesRoute } from "./routes/opportunities";
import { opportunityRoute } from "./routes/opportunity";
import { portfolioRoute } from "./routes/portfolio";
import { portfolioPositionRoute } from "./routes/portfolio-position";
import { simulationRoute } from "./routes/simulation";
import { simulationsRoute } from "./routes/simulations";
import { updatePositionRoute } from "./routes/update-position";
import { apiServices, type ApiServices } from "./services";
import { authenticate, type ApiEnv } from "./with-api-key";

export const API_ROUTES: readonly ApiRoute[] = [
  authVerifyRoute,
  opportunitiesRoute,
  opportunityRoute,
  exchangesRoute,
  fundingRatesRoute,
  createSimulationRoute,
  simulationsRoute,
  simulationRoute,
  // Creators first: the contract tests read, change, close and then delete the position created here.
  createPositionRoute,
  portfolioRoute,
  portfolioPositionRoute,
  updatePositionRoute,
  closePositionRoute,
  deletePositionRoute,
];

// Served beside the routes (public, outside the envelope), but a wrong method on it is a 405 all the same.
const OPENAPI_ROUTE = { method: "GET", path: OPENAPI_PATH } as const;

function errorResponse(c: Context<ApiEnv>, error: ApiError) {
  const headers: Record<string, string> = { ...(c.get("rateLimitHeaders") ?? {}), ...error.extra.headers };
  if (error.extra.retryAfter !== undefined) headers["Retry-After"] = String(error.extra.retryAfter);
  return c.json(errorBody(error, c.get("requestId")), error.status, headers);
}

/**
 * The HTTP API as one Web-standard app: `server.ts` serves it directly (the fast path) and
 * `app/v1/[[...path]]/route.ts` mounts the same app under `next dev` and serverless hosts.
 */
export function createApiApp(services: () => ApiServices = apiServices) {
  const app = new Hono<ApiEnv>();

  app.use("*", async (c, next) => {
    const requestId = newRequestId();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    await next();
  });

  app.get("/healthz", async (c) => {
    const health = await readHealth();
    // Only a dead database takes the instance out of rotation; a degraded limiter still serves.
    return c.json(health, health.database.status === "up" ? 200 : 503);
  });

  for (const route of API_ROUTES) {
    app.on(route.method, route.path, (c) => route.handler(services())(c));
  }

  // The API's description is public, like a reference page: no key is needed to learn how to get one.
  let openApiDocument: Record<string, unknown> | undefined;
  app.get(OPENAPI_PATH, (c) => c.json((openApiDocument ??= buildOpenApiDocument(API_ROUTES))));

  // Unknown paths and methods: the caller is authenticated first, so strangers learn nothing
  // about which routes exist.
  const fallback = async (c: Context<ApiEnv>) => {
    await authenticate(c, services());
    // c.req.path is decoded the way the router decodes it, so /v1/%61uth/verify matches as routing does.
    const allowed = [...API_ROUTES, OPENAPI_ROUTE].filter((r) => pathPattern(r.path).test(c.req.path)).map((r) => r.method);
    if (allowed.length === 0) throw new ApiError("NOT_FOUND");
    throw new ApiError("METHOD_NOT_ALLOWED", `Method ${c.req.method} is not allowed here; use ${allowed.join(", ")}`, {
      headers: { Allow: allowed.join(", ") },
    });
  };
  app.all("/v1", fallback);
  app.all("/v1/*", fallback);

  app.notFound((c) => errorResponse(c, new ApiError("NOT_FOUND")));

  app.onError((error, c) => {
    if (!c.get("requestId")) c.set("requestId", newRequestId());
    c.header("X-Request-Id", c.get("requestId"));
    if (error instanceof ApiError) return errorResponse(c, error);
    console.error(`[${c.get("requestId")}] unhandled error`, error);
    return errorResponse(c, new ApiError("INTERNAL_ERROR"));
  });

  return app;
}

export type ApiApp = ReturnType<typeof createApiApp>;
