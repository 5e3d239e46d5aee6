import { Hono } from "hono";
import { appServices, type AppServices } from "@/lib/app-services";
import { AppError } from "@/lib/errors";
import { mayShowHealthDetails, publicHealth, readHealth } from "@/lib/health";
import { UNKNOWN_ROUTE } from "@/lib/usage/usage-recorder";
import { windowCount } from "@/lib/usage/window-count";
import { buildOpenApiDocument, OPENAPI_PATH, openApiPath } from "./openapi/openapi-document";
import { newRequestId } from "./request-id";
import { METRICS_PATH, readMetrics } from "./metrics-endpoint";
import { recordHttpRequest } from "@/lib/observability/metrics";
import { runInRequestContext } from "@/lib/observability/request-context";
import { isPublicHttps, publicOrigin } from "@/lib/config/public-url";
import {
  API_CONTENT_SECURITY_POLICY,
  baselineSecurityHeaders,
  CORS_PREFLIGHT_HEADERS,
  CORS_RESPONSE_HEADERS,
  isPreflight,
} from "./security-headers";
import { withLocation } from "./location";
import { jsonError } from "./respond";
import { pathPattern, type ApiContext, type ApiEnv, type ApiRoute } from "./route";
import { closePositionRoute } from "./routes/close-position";
import { createPositionRoute } from "./routes/create-position";
import { createSimulationRoute } from "./routes/create-simulation";
import { deletePositionRoute } from "./routes/delete-position";
import { getOpportunityRoute } from "./routes/get-opportunity";
import { getCarryOpportunityRoute } from "./routes/get-carry-opportunity";
import { getCarryOpportunityQuoteRoute } from "./routes/get-carry-opportunity-quote";
import { getOpportunityQuoteRoute } from "./routes/get-opportunity-quote";
import { getPositionRoute } from "./routes/get-position";
import { getSimulationRoute } from "./routes/get-simulation";
import { getUsageRoute } from "./routes/get-usage";
import { listEventsRoute } from "./routes/list-events";
import { getEventRoute } from "./routes/get-event";
import { listEventDeliveriesRoute } from "./routes/list-event-deliveries";
import { createStreamTokenRoute } from "./routes/create-stream-token";
import { listExchangesRoute } from "./routes/list-exchanges";
import { listFundingIntervalsRoute } from "./routes/list-funding-intervals";
import { listFundingRatesRoute } from "./routes/list-funding-rates";
import { getFundingRateCoverageRoute } from "./routes/get-funding-rate-coverage";
import { listOpportunitiesRoute } from "./routes/list-opportunities";
import { listCarryOpportunitiesRoute } from "./routes/list-carry-opportunities";
import { listPositionsRoute } from "./routes/list-positions";
import { listSimulationsRoute } from "./routes/list-simulations";
import { updatePositionRoute } from "./routes/update-position";
import { getAccountFeesRoute } from "./routes/get-account-fees";
import { updateAccountFeesRoute } from "./routes/update-account-fees";
import { verifyKeyRoute } from "./routes/verify-key";
import { createWebhookEndpointRoute } from "./routes/create-webhook-endpoint";
import { listWebhookEndpointsRoute } from "./routes/list-webhook-endpoints";
import { getWebhookEndpointRoute } from "./routes/get-webhook-endpoint";
import { updateWebhookEndpointRoute } from "./routes/update-webhook-endpoint";
import { rollWebhookSecretRoute } from "./routes/roll-webhook-secret";
import { testWebhookEndpointRoute } from "./routes/test-webhook-endpoint";
import { listWebhookDeliveriesRoute } from "./routes/list-webhook-deliveries";
import { redeliverWebhookRoute } from "./routes/redeliver-webhook";
import { replayWebhookDeliveriesRoute } from "./routes/replay-webhook-deliveries";
import { deleteWebhookEndpointRoute } from "./routes/delete-webhook-endpoint";
import { createAlertRuleRoute } from "./routes/create-alert-rule";
import { listAlertRulesRoute } from "./routes/list-alert-rules";
import { getAlertRuleRoute } from "./routes/get-alert-rule";
import { updateAlertRuleRoute } from "./routes/update-alert-rule";
import { deleteAlertRuleRoute } from "./routes/delete-alert-rule";
import { authenticate, withApiKey } from "./with-api-key";
import { STREAM_PATH, streamEvents } from "./event-stream";
import { EXPORT_PATH, exportFundingRatesWithKey } from "./export-funding-rates";

/**
 * Every /v1 operation, in the order the reference and /docs list them: within a resource, the
 * route that creates it comes before those that read it, as a reader trying the examples needs.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  verifyKeyRoute,
  listOpportunitiesRoute,
  getOpportunityRoute,
  getOpportunityQuoteRoute,
  listCarryOpportunitiesRoute,
  getCarryOpportunityRoute,
  getCarryOpportunityQuoteRoute,
  listExchangesRoute,
  listFundingRatesRoute,
  getFundingRateCoverageRoute,
  listFundingIntervalsRoute,
  listEventsRoute,
  getEventRoute,
  createStreamTokenRoute,
  createSimulationRoute,
  listSimulationsRoute,
  getSimulationRoute,
  createPositionRoute,
  listPositionsRoute,
  getPositionRoute,
  updatePositionRoute,
  closePositionRoute,
  deletePositionRoute,
  getUsageRoute,
  getAccountFeesRoute,
  updateAccountFeesRoute,
  createWebhookEndpointRoute,
  listWebhookEndpointsRoute,
  getWebhookEndpointRoute,
  updateWebhookEndpointRoute,
  rollWebhookSecretRoute,
  testWebhookEndpointRoute,
  listWebhookDeliveriesRoute,
  redeliverWebhookRoute,
  replayWebhookDeliveriesRoute,
  listEventDeliveriesRoute,
  deleteWebhookEndpointRoute,
  createAlertRuleRoute,
  listAlertRulesRoute,
  getAlertRuleRoute,
  updateAlertRuleRoute,
  deleteAlertRuleRoute,
];

// Served beside the routes (public, outside the envelope), but a wrong method on it is a 405 all the same.
const OPENAPI_ROUTE = { method: "GET", path: OPENAPI_PATH } as const;
// The event stream: a /v1 operation outside API_ROUTES (lib/api/event-stream.ts says why).
const STREAM_ROUTE = { method: "GET", path: STREAM_PATH } as const;
// The funding-history export: a file, not an envelope, so also outside API_ROUTES (lib/api/export-definition.ts says why).
const EXPORT_ROUTE = { method: "GET", path: EXPORT_PATH } as const;
// The operators' paths: outside /v1, without CORS (no page of another origin has business there).
const OPERATOR_PATHS: ReadonlySet<string> = new Set(["/healthz", METRICS_PATH]);

/**
 * The route an answer is counted under in the metrics: the template (`GET /v1/opportunities/{id}`),
 * never the path as sent, so a scan of made-up paths adds no series.
 */
function metricsRoute(c: ApiContext): string {
  const route = c.get("usageRoute");
  if (route) return route;
  const path = c.req.path;
  if (OPERATOR_PATHS.has(path) || path === OPENAPI_PATH) return `${c.req.method} ${path}`;
  return c.req.method === "OPTIONS" ? "OPTIONS (preflight)" : "unmatched";
}

function withHeaders(response: Response, requestId: string, headers: Readonly<Record<string, string>>): Response {
  response.headers.set("X-Request-Id", requestId);
  for (const name in headers) response.headers.set(name, headers[name]!);
  return response;
}

export interface ApiAppOptions {
  /**
   * Whether the cached reads may answer with their precompressed br / gzip bodies (the default).
   * False for an app served behind a layer that compresses by itself and drops `Content-Encoding`
   * (as Next's route handlers do): bodies then go uncompressed, with the uncompressed ETag.
   */
  precompress?: boolean;
}

/**
 * The HTTP API as one Web-standard app, served by `server.ts` alone (lib/api/request-listener.ts):
 * Next has no /v1 route, so /v1 has one way in.
 */
export function createApiApp(services: () => AppServices = appServices, options: ApiAppOptions = {}) {
  const app = new Hono<ApiEnv>();

  // Set here, with the API's own policy, rather than by server.ts's listener, which gives Next's answers theirs.
  const securityHeaders = Object.freeze({
    ...baselineSecurityHeaders(isPublicHttps()),
    "Content-Security-Policy": API_CONTENT_SECURITY_POLICY,
  });
  const apiHeaders = Object.freeze({ ...securityHeaders, ...CORS_RESPONSE_HEADERS });
  const precompress = options.precompress ?? true;
  const whole = { api: { headers: apiHeaders, precompress }, health: { headers: securityHeaders, precompress } };
  app.use("*", async (c, next) => {
    const started = performance.now();
    const requestId = newRequestId();
    c.set("requestId", requestId);
    const cors = !OPERATOR_PATHS.has(c.req.path);
    const headers = cors ? apiHeaders : securityHeaders;
    // Answers built whole (the cached reads) take them from here; every other answer gets them below.
    c.set("wholeAnswers", cors ? whole.api : whole.health);
    // A preflight carries no key (browsers never send one): answered before authentication.
    if (cors && isPreflight(c.req.raw)) {
      recordHttpRequest(metricsRoute(c), 204, (performance.now() - started) / 1000);
      return withHeaders(c.body(null, 204, CORS_PREFLIGHT_HEADERS), requestId, headers);
    }
    // Every log line written for the request carries its id, and its account once the key is admitted.
    await runInRequestContext({ requestId }, next);
    recordHttpRequest(metricsRoute(c), c.res.status, (performance.now() - started) / 1000);
    // Every answer to a verified key is usage, whichever step gave it (a handler, a cached read, a
    // 304, a 429, a refusal): counted here once, in memory (lib/usage/).
    const key = c.get("key");
    if (key) services().usage.record(key.id, c.get("usageRoute") ?? UNKNOWN_ROUTE, c.res.status, windowCount(c.get("rateLimitHeaders")));
    if (!c.get("answeredWhole")) withHeaders(c.res, requestId, headers);
  });

  app.get("/healthz", async (c) => {
    // The details help an attacker as much as an operator: only HEALTH_DETAILS_TOKEN's holder sees them.
    const details = mayShowHealthDetails(c.req.header("authorization"));
    const health = await readHealth({ details });
    // Only a dead database takes the instance out of rotation; a degraded limiter still serves.
    const status = health.database.status === "up" ? 200 : 503;
    return c.json(details ? health : publicHealth(health), status);
  });

  // Prometheus's scrape: the same token as /healthz's details, and nothing for anyone else.
  app.get(METRICS_PATH, async (c) => {
    if (!mayShowHealthDetails(c.req.header("authorization"))) {
      throw new AppError("UNAUTHORIZED", "GET /metrics needs Authorization: Bearer <HEALTH_DETAILS_TOKEN>", { headers: { "WWW-Authenticate": "Bearer" } });
    }
    const { text, contentType } = await readMetrics(services());
    return c.body(text, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  });

  for (const route of API_ROUTES) {
    const usageRoute = `${route.method} ${openApiPath(route.path)}`;
    const handle = (c: ApiContext) => {
      c.set("usageRoute", usageRoute);
      return withApiKey(route, c, services());
    };
    // Only creating routes pay for reading their answer back; the hot read paths stay as they are.
    app.on(route.method, route.path, route.location ? async (c) => withLocation(route, await handle(c)) : handle);
  }

  app.get(STREAM_PATH, (c) => {
    c.set("usageRoute", `GET ${STREAM_PATH}`);
    return streamEvents(c, services());
  });

  app.get(EXPORT_PATH, (c) => {
    c.set("usageRoute", `GET ${EXPORT_PATH}`);
    return exportFundingRatesWithKey(c, services());
  });

  // The API's description is public, like a reference page: no key is needed to learn how to get one.
  // Its `servers` entry is the configured public URL as it is when served (read per request, like
  // /docs does), so the document is rebuilt only when that setting changes.
  let served: { origin: string; document: Record<string, unknown> } | undefined;
  app.get(OPENAPI_PATH, (c) => {
    const origin = publicOrigin();
    if (served?.origin !== origin) served = { origin, document: buildOpenApiDocument(API_ROUTES, origin) };
    return c.json(served.document);
  });

  // Unknown paths and methods: the caller is authenticated first, so strangers learn nothing
  // about which routes exist.
  const fallback = async (c: ApiContext) => {
    await authenticate(c, services());
    // c.req.path is decoded the way the router decodes it, so /v1/%61uth/verify matches as routing does.
    const allowed = [...API_ROUTES, OPENAPI_ROUTE, STREAM_ROUTE, EXPORT_ROUTE].filter((r) => pathPattern(r.path).test(c.req.path)).map((r) => r.method);
    if (allowed.length === 0) throw new AppError("NOT_FOUND");
    throw new AppError("METHOD_NOT_ALLOWED", `Method ${c.req.method} is not allowed here; use ${allowed.join(", ")}`, {
      headers: { Allow: allowed.join(", ") },
    });
  };
  app.all("/v1", fallback);
  app.all("/v1/*", fallback);

  const requestIdOf = (c: ApiContext) => c.get("requestId") ?? newRequestId();
  app.notFound((c) => jsonError(new AppError("NOT_FOUND"), requestIdOf(c)));
  app.onError((error, c) => jsonError(error, requestIdOf(c), c.get("rateLimitHeaders")));

  return app;
}

export type ApiApp = ReturnType<typeof createApiApp>;
