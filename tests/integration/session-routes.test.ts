// The web pages' JSON routes (app/api/**) as a session credential on the /v1 operations: the same
// rule per resource (a Free session refused as a Free key is, with the same code and message; Pro
// allowed where /v1 allows Pro), the same schemas (the same 400 field errors), the same pagination,
// and the wrapper's own answers (no session 401, another origin 403, an implausible id 404). The
// real route modules run, with the session and the process's services pointed at this test's.
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "@/lib/app-services";
import type { SessionUser } from "@/lib/auth/session";
import { publicOrigin } from "@/lib/config/public-url";
import type { Tier } from "@/lib/keys/permissions";
import { expectEnvelope, type Envelope } from "./helpers/api-envelope";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { marketApiForFile, type Json } from "./helpers/market-api";

const state = vi.hoisted(() => ({ user: null as SessionUser | null, services: undefined as AppServices | undefined }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => state.user }));
vi.mock("@/lib/app-services", async (importOriginal) => ({ ...(await importOriginal<object>()), appServices: () => state.services! }));
vi.mock("@/lib/db", async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: () => state.services!.db() }));

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
type Accounts = Record<Tier, { user: SessionUser; key: string }>;

const api = marketApiForFile();
let accounts: Accounts;

beforeAll(async () => {
  state.services = api.services;
  const entries = await Promise.all(
    (["free", "pro", "desk"] as const).map(async (tier) => {
      const row = await createUser(api.db, tier);
      const user: SessionUser = { id: row.id, email: row.email, tier, emailVerified: true, isAdmin: false, sessionId: `session-${tier}` };
      return [tier, { user, key: (await createKeyFor(api.db, row.id)).secret }] as const;
    }),
  );
  accounts = Object.fromEntries(entries) as Accounts;
}, 120_000);

interface Answer {
  status: number;
  envelope: Envelope;
}

/** One request to a page's route as the browser sends it: signed in as `tier` (or signed out), same origin unless told. */
async function web(handler: Handler, method: string, tier: Tier | null, { body, params = {}, query = "", origin = publicOrigin() }: { body?: unknown; params?: Record<string, string>; query?: string; origin?: string | null } = {}): Promise<Answer> {
  state.user = tier === null ? null : accounts[tier].user;
  const headers: Record<string, string> = {};
  if (origin !== null) headers.Origin = origin;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const request = new Request(`${publicOrigin()}/api/page${query}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const response = await handler(request, { params: Promise.resolve(params) });
  return { status: response.status, envelope: expectEnvelope(response.status, response.headers, await response.text(), `${method} (session ${tier})`) };
}

/** The same operation on /v1 with the account's live key. */
async function v1(method: string, path: string, tier: Tier, body?: unknown): Promise<Answer> {
  const { status, envelope } = await api.send(method, path, accounts[tier].key, body === undefined ? undefined : JSON.stringify(body));
  return { status, envelope };
}

const errorOf = (answer: Answer) => (answer.envelope.kind === "error" ? answer.envelope.error : undefined);
const dataOf = (answer: Answer) => (answer.envelope.kind === "success" ? (answer.envelope.data as Json) : undefined);

const webhooks = () => import("@/app/api/account/webhooks/route");
const alerts = () => import("@/app/api/account/alerts/route");
const positions = () => import("@/app/api/portfolio/positions/route");
const simulations = () => import("@/app/api/simulations/route");
const fees = () => import("@/app/api/account/fees/route");
const quotes = () => import("@/app/api/opportunities/quotes/route");

const endpointInput = { url: "https://hooks.example.com/session", event_types: ["opportunity.opened"] };
const ruleInput = { name: "BTC wide", kind: "opportunity", symbol: "BTC", min_net_apr: 15, cooldown_minutes: 60 };
const positionInput = { opportunity_id: "BTC-binance-hyperliquid", notional_usd: 1_000 };
const simulationInput = { opportunity_id: "BTC-binance-hyperliquid", notional_usd: 1_000, holding_days: 2 };

// One row per resource: the page's route and the /v1 route running the same operation.
const RESOURCES = [
  { name: "webhook endpoints", handler: async () => (await webhooks()).POST, method: "POST", path: "/v1/webhook-endpoints", v1Method: "POST", body: endpointInput },
  { name: "alert rules", handler: async () => (await alerts()).POST, method: "POST", path: "/v1/alert-rules", v1Method: "POST", body: ruleInput },
  { name: "portfolio", handler: async () => (await positions()).POST, method: "POST", path: "/v1/portfolio/positions", v1Method: "POST", body: positionInput },
  { name: "simulations", handler: async () => (await simulations()).POST, method: "POST", path: "/v1/simulations", v1Method: "POST", body: simulationInput },
  { name: "account fees", handler: async () => (await fees()).POST, method: "POST", path: "/v1/account/fees", v1Method: "PATCH", body: { binance: 0.0004 } },
] as const;

describe("one rule per resource for both credentials", () => {
  for (const resource of RESOURCES) {
    it(`${resource.name}: a Free session is refused with the code and message a Free key gets on /v1`, async () => {
      const handler = (await resource.handler()) as Handler;
      const session = await web(handler, resource.method, "free", { body: resource.body });
      const key = await v1(resource.v1Method, resource.path, "free", resource.body);
      expect(key.status).toBe(403);
      expect(session.status).toBe(403);
      expect(errorOf(session)).toMatchObject({ code: errorOf(key)!.code, message: errorOf(key)!.message });
      expect(errorOf(session)!.message).toMatch(/needs [a-z:]+, included in the (Pro and )?Desk plans?/);
    });

    it(`${resource.name}: a Pro session is allowed`, async () => {
      const handler = (await resource.handler()) as Handler;
      const session = await web(handler, resource.method, "pro", { body: resource.body });
      expect(session.status, JSON.stringify(session.envelope)).toBeLessThan(300);
    });
  }

  it("webhooks: a Pro session and a Pro key are both allowed, by the route's fallback permission", async () => {
    // A Pro account of its own: the one above holds an endpoint already, and Pro's cap is per account.
    const row = await createUser(api.db, "pro");
    accounts.pro = { user: { ...accounts.pro.user, id: row.id, email: row.email }, key: (await createKeyFor(api.db, row.id)).secret };
    const session = await web((await webhooks()).POST, "POST", "pro", { body: { ...endpointInput, url: "https://hooks.example.com/pro-session" } });
    const key = await v1("POST", "/v1/webhook-endpoints", "pro", { ...endpointInput, url: "https://hooks.example.com/pro-key" });
    expect([session.status, key.status]).toEqual([201, 201]);
    expect(Object.keys(dataOf(session)!).sort()).toEqual(Object.keys(dataOf(key)!).sort());
  });

  it("quotes: a Free session is refused with /v1's quote rule (needs opportunities:read)", async () => {
    const session = await web((await quotes()).GET as Handler, "GET", "free", { query: "?ids=BTC-binance-hyperliquid&notional=1000" });
    const key = await v1("GET", "/v1/opportunities/BTC-binance-hyperliquid/quote?notional_usd=1000", "free");
    expect([session.status, key.status]).toEqual([403, 403]);
    expect(errorOf(session)!.message).toBe(errorOf(key)!.message);
  });

  it("quotes: an account's screener quote requests are limited per minute, with Retry-After", async () => {
    const { SCREENER_QUOTE_REQUESTS_PER_MINUTE } = await import("@/lib/screener/screener-quotes");
    const ask = async () => web((await quotes()).GET as Handler, "GET", "desk", { query: "?ids=NONE-binance-okx&notional=1000" });
    expect((await ask()).status).toBe(200);
    // The rest of the minute's allowance spent at once (a slow machine must not let the window slide).
    const limiter = api.services.limiter;
    for (let n = 1; n < SCREENER_QUOTE_REQUESTS_PER_MINUTE; n++) await limiter.limit(`screener-quotes:${accounts.desk.user.id}`, SCREENER_QUOTE_REQUESTS_PER_MINUTE, 60_000);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(errorOf(refused)!.message).toBe(`At most ${SCREENER_QUOTE_REQUESTS_PER_MINUTE} screener quote requests a minute per account`);
  });
});

describe("the session wrapper", () => {
  it("answers 401 without a session, before anything else", async () => {
    const answer = await web((await webhooks()).POST, "POST", null, { body: endpointInput });
    expect(answer.status).toBe(401);
    expect(errorOf(answer)!.code).toBe("UNAUTHORIZED");
  });

  it("refuses a mutation from another origin with 403", async () => {
    const answer = await web((await webhooks()).POST, "POST", "desk", { body: endpointInput, origin: "https://evil.example" });
    expect(answer.status).toBe(403);
    expect(errorOf(answer)!.message).toBe("Cross-site request refused");
  });

  it("answers bad input with 400 and the same field errors as /v1", async () => {
    const bad = { url: "ftp://hooks.example.com", event_types: ["no.such.type"], unexpected: true };
    const session = await web((await webhooks()).POST, "POST", "desk", { body: bad });
    const key = await v1("POST", "/v1/webhook-endpoints", "desk", bad);
    expect([session.status, key.status]).toEqual([400, 400]);
    expect(errorOf(session)!.code).toBe("VALIDATION_ERROR");
    expect(errorOf(session)!.details).toEqual(errorOf(key)!.details);
    expect(errorOf(session)!.details!.length).toBeGreaterThan(0);
  });

  it("answers 404 for a path value /v1's schema refuses", async () => {
    const { PATCH } = await import("@/app/api/account/webhooks/[id]/route");
    const answer = await web(PATCH, "PATCH", "desk", { body: { enabled: false }, params: { id: "not a cuid" } });
    expect(answer.status).toBe(404);
  });

  it("passes an [id] that names no row (an opportunity's) to the handler, which looks it up itself", async () => {
    const { GET } = await import("@/app/api/opportunities/[id]/history/route");
    const answer = await web(GET as Handler, "GET", "desk", { params: { id: "xyz:TSLA-hyperliquid.xyz-binance" } });
    expect(answer.status).toBe(404);
    expect(errorOf(answer)!.message).toBe('No opportunity with id "xyz:TSLA-hyperliquid.xyz-binance"');
  });

  it("refuses a repeated query parameter on the operators' search, as /v1 does", async () => {
    const { GET } = await import("@/app/api/admin/users/route");
    state.user = { ...accounts.desk.user, isAdmin: true };
    const request = new Request(`${publicOrigin()}/api/admin/users?q=a&q=b`);
    const answer = await GET(request, { params: Promise.resolve({}) });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/"field":"q"/);
  });
});

describe("apiRoute", () => {
  it("finds a /v1 route by operationId, and refuses a name none declares", async () => {
    const { apiRoute } = await import("@/lib/api/session-route");
    expect(apiRoute("createWebhookEndpoint")).toMatchObject({ method: "POST", path: "/v1/webhook-endpoints", permission: "write" });
    expect(() => apiRoute("noSuchOperation")).toThrow('No /v1 route has operationId "noSuchOperation"');
  });
});

describe("pagination, done once", () => {
  it("pages a session's list exactly as /v1 pages the same account's", async () => {
    const { GET } = await alerts();
    for (const name of ["first", "second", "third"]) {
      expect((await web((await alerts()).POST, "POST", "desk", { body: { ...ruleInput, name } })).status).toBe(201);
    }
    const session = dataOf(await web(GET, "GET", "desk", { query: "?limit=2&offset=1" }))!;
    const key = dataOf(await v1("GET", "/v1/alert-rules?limit=2&offset=1", "desk"))!;
    expect(session).toEqual(key);
    expect(session).toMatchObject({ total: 3, limit: 2, offset: 1, has_more: false });
    expect(session.items.map((rule: Json) => rule.name)).toEqual(["second", "third"]);
  });

  it("refuses a limit past /v1's maximum with /v1's field error", async () => {
    const session = await web((await webhooks()).GET, "GET", "desk", { query: "?limit=1000" });
    const key = await v1("GET", "/v1/webhook-endpoints?limit=1000", "desk");
    expect([session.status, key.status]).toEqual([400, 400]);
    expect(errorOf(session)!.details).toEqual(errorOf(key)!.details);
  });
});
