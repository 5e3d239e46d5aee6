// GET /v1/exports/funding-rates and the web app's download route (app/api/exports/funding-rates):
// both formats read back and compared with GET /v1/funding-rates, a 200k-row export streamed a batch
// at a time, the 400s naming the field, the plan's refusals (403 and the day's 429), and the steps
// every /v1 request goes through (the key, the rate limit, 405 on other methods).
import { parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { exportResponse } from "@/lib/api/export-funding-rates";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { SessionUser } from "@/lib/auth/session";
import { publicOrigin } from "@/lib/config/public-url";
import type { Db } from "@/lib/db";
import { EXPORT_BATCH_ROWS } from "@/lib/history/export/read-settlement-batches";
import type { Tier } from "@/lib/keys/permissions";
import type { FundingSettlement } from "@/lib/market/model/funding-settlement";
import { planOf, type Plan } from "@/lib/plans";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { testDatabaseForFile } from "@/tests/support/test-database-for-file";
import { expectEnvelope } from "./helpers/api-envelope";

const state = vi.hoisted(() => ({ user: null as SessionUser | null, services: undefined as AppServices | undefined }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => state.user }));
vi.mock("@/lib/app-services", async (importOriginal) => ({ ...(await importOriginal<object>()), appServices: () => state.services! }));
vi.mock("@/lib/db", async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: () => state.services!.db() }));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BIG_MARKETS = 278;
const BIG_HOURS = 720;
const BIG_ROWS = BIG_MARKETS * BIG_HOURS;
const database = testDatabaseForFile();
const now = Date.now();
const hourNow = Math.floor(now / HOUR) * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

let services: AppServices;
let app: ReturnType<typeof createApiApp>;
/** Queries of the settlement table the export's reads sent (`$queryRaw`), counted to see how far a stream has read. */
let rawQueries = 0;
const keys = {} as Record<Tier | "test", string>;
const users = {} as Record<Tier, SessionUser>;

/** The database with its raw queries counted: the export reads only through them. */
function counted(db: Db): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "$queryRaw") {
        return (...args: Parameters<Db["$queryRaw"]>) => {
          rawQueries += 1;
          return target.$queryRaw(...args);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  const db = database.db;
  const countedDb = counted(db);
  services = createAppServices(async () => countedDb);
  state.services = services;
  app = createApiApp(() => services);
  await seedLiveOpportunities(db, [liveOpportunity("BTC", 12.5)], new Date(now - 60_000));
  for (const tier of ["free", "pro", "desk"] as const) {
    const row = await createUser(db, tier);
    users[tier] = { id: row.id, email: row.email, tier, emailVerified: true, isAdmin: false, sessionId: `session-${tier}` };
    keys[tier] = (await createKeyFor(db, row.id)).secret;
  }
  keys.test = (await createKeyFor(db, users.pro.id, { mode: "test" })).secret;

  // BTC and ETH on binance (8h, a USDC twin for BTC) and okx (4h) for 10 days; a row with a comma in its market.
  const rows = [];
  for (let i = 0, t = hourNow - 10 * DAY; t <= hourNow; i++, t += 4 * HOUR) {
    if (i % 2 === 0) {
      rows.push({ exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time: new Date(t), rate: 0.0001, intervalHours: 8, source: "observed" });
      rows.push({ exchange: "binance", market: "BTC/USDC:USDC", base: "BTC", time: new Date(t), rate: -0.00002, intervalHours: 8, source: "observed" });
      rows.push({ exchange: "binance", market: "ETH/USDT:USDT", base: "ETH", time: new Date(t), rate: 0.00015, intervalHours: null, source: "observed" });
    }
    rows.push({ exchange: "okx", market: "BTC-USDT-SWAP,odd", base: "BTC", time: new Date(t), rate: 0.00004, intervalHours: 4, source: "observed" });
  }
  await db.fundingRate.createMany({ data: rows });
  // 278 markets × 720 hours on bitget: 200,160 settlements over the last 30 days.
  const first = hourNow - (BIG_HOURS - 1) * HOUR;
  await db.$executeRaw`
    INSERT INTO "FundingRate" (exchange, market, base, "time", rate, "intervalHours", source)
    SELECT 'bitget', 'M' || m || '/USDT:USDT', 'M' || m, ${new Date(first)}::timestamp + h * INTERVAL '1 hour',
           0.00001 * (m % 7) - 0.00002, 1, 'observed'
    FROM generate_series(0, ${BIG_MARKETS - 1}) AS m, generate_series(0, ${BIG_HOURS - 1}) AS h`;
}, 180_000);

function request(path: string, key: string | null = keys.pro, method = "GET") {
  return app.fetch(new Request(`http://localhost${path}`, { method, headers: key ? { Authorization: `Bearer ${key}` } : {} }));
}

async function refused(path: string, status: number, key: string | null = keys.pro) {
  const response = await request(path, key);
  const envelope = expectEnvelope(response.status, response.headers, await response.text(), path);
  expect(response.status, JSON.stringify(envelope)).toBe(status);
  if (envelope.kind !== "error") throw new Error("expected an error");
  return { error: envelope.error, headers: response.headers };
}

/** An RFC 4180 body as records of fields (the quoting this export writes: no line breaks inside fields here). */
function parseCsv(text: string): string[][] {
  expect(text.endsWith("\r\n")).toBe(true);
  return text
    .slice(0, -2)
    .split("\r\n")
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].slice(0, -1).map(([, field]) => (field!.startsWith('"') ? field!.slice(1, -1).replaceAll('""', '"') : field!)));
}

const fromCsv = ([exchange, market, symbol, time, rate, interval, apr, source]: string[]): FundingSettlement => ({
  exchange: exchange!,
  market: market!,
  symbol: symbol!,
  time: time!,
  funding_rate: Number(rate),
  funding_interval_hours: interval === "" ? null : Number(interval),
  apr: apr === "" ? null : Number(apr),
  source: source as FundingSettlement["source"],
});

const sortKey = (s: FundingSettlement) => `${s.exchange}\u0000${s.market}\u0000${s.time}`;
const byKey = (a: FundingSettlement, b: FundingSettlement) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0);

/** Every settlement GET /v1/funding-rates pages out for one asset on one exchange over the range. */
async function listed(exchange: string, symbol: string, from: string, to: string): Promise<FundingSettlement[]> {
  const response = await request(`/v1/funding-rates?exchange=${exchange}&symbol=${symbol}&from=${from}&to=${to}&limit=1000`);
  const body = (await response.json()) as { data: { items: FundingSettlement[]; has_more: boolean } };
  expect(body.data.has_more).toBe(false);
  return body.data.items;
}

const range = { from: iso(hourNow - 9 * DAY), to: iso(hourNow) };
const selection = `exchanges=okx,binance&symbols=btc,eth&from=${range.from}&to=${range.to}`;

describe("GET /v1/exports/funding-rates", () => {
  it("writes CSV with a header, sorted by exchange, market and time, holding what GET /v1/funding-rates lists", async () => {
    const response = await request(`/v1/exports/funding-rates?${selection}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    const stamp = (at: string) => at.slice(0, 16).replaceAll("-", "").replace(":", "") + "Z";
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="funding-rates_binance-okx_BTC-ETH_${stamp(range.from)}_${stamp(range.to)}.csv"`);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(response.headers.get("x-ratelimit-limit")).toBe("100");
    const [header, ...records] = parseCsv(await response.text());
    expect(header).toEqual(["exchange", "market", "symbol", "time", "funding_rate", "funding_interval_hours", "apr", "source"]);
    const rows = records.map(fromCsv);
    expect(response.headers.get("x-export-rows")).toBe(String(rows.length));
    expect(rows).toEqual([...rows].sort(byKey));
    const expected = (
      await Promise.all([listed("binance", "BTC", range.from, range.to), listed("binance", "ETH", range.from, range.to), listed("okx", "BTC", range.from, range.to)])
    ).flat();
    // Every 4 hours on okx over 9 days, every 8 hours on binance's three markets.
    expect(rows.filter((r) => r.exchange === "okx")).toHaveLength(55);
    expect(rows.length).toBeGreaterThanOrEqual(55 + 27 * 3);
    expect(rows).toEqual(expected.sort(byKey));
    expect(rows.find((r) => r.exchange === "okx")?.market).toBe("BTC-USDT-SWAP,odd");
  });

  it("writes the same rows as Parquet, which hyparquet reads back", async () => {
    const csv = parseCsv(await (await request(`/v1/exports/funding-rates?${selection}`)).text()).slice(1).map(fromCsv);
    const response = await request(`/v1/exports/funding-rates?${selection}&format=parquet`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="funding-rates_binance-okx_BTC-ETH_\d{8}T\d{4}Z_\d{8}T\d{4}Z\.parquet"$/);
    const file = await response.arrayBuffer();
    const read = (await parquetReadObjects({ file })).map((r) => ({ ...r, time: (r.time as Date).toISOString() }));
    expect(read).toEqual(csv);
  });

  it("streams a 200,000-row export a batch at a time: the answer starts after the first batch, not after the last", async () => {
    const path = `/v1/exports/funding-rates?exchanges=bitget&from=${iso(hourNow - 30 * DAY)}&to=${iso(hourNow)}`;
    rawQueries = 0;
    const response = await request(path, keys.desk);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-export-rows")).toBe(String(BIG_ROWS));
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: number[] = [];
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.length);
      // Two chunks in (the header and the first batch), the count and at most a batch or two ahead have been read.
      if (chunks.length === 2) expect(rawQueries).toBeLessThanOrEqual(4);
      text += decoder.decode(value, { stream: true });
    }
    const batches = Math.ceil(BIG_ROWS / EXPORT_BATCH_ROWS);
    // The count, then one query per batch (the last one short, which ends the reading).
    expect(rawQueries).toBe(1 + batches);
    expect(chunks.length).toBe(1 + batches);
    // No chunk holds more than one batch: a batch of 5,000 rows is well under 600 KB of CSV.
    expect(Math.max(...chunks)).toBeLessThan(600_000);
    const lines = text.split("\r\n");
    expect(lines.length).toBe(BIG_ROWS + 2);
    expect(lines[1]).toMatch(/^bitget,M0\/USDT:USDT,M0,/);
    expect(lines.at(-2)).toMatch(/^bitget,M99\/USDT:USDT,M99,/);
  }, 120_000);

  it("gives test keys the sandbox's settlements, never live ones", async () => {
    const response = await request(`/v1/exports/funding-rates?exchanges=hyperliquid&symbols=BTC`, keys.test);
    expect(response.status).toBe(200);
    const rows = parseCsv(await response.text()).slice(1).map(fromCsv);
    expect(rows.length).toBeGreaterThanOrEqual(167);
    expect(rows.every((r) => r.source === "sandbox" && r.exchange === "hyperliquid")).toBe(true);
  });

  it.each([
    ["format=xlsx", "format"],
    ["exchanges=ftx", "exchanges"],
    ["symbols=BT-C", "symbols"],
    [`symbols=${Array.from({ length: 51 }, (_, i) => `A${i}`).join(",")}`, "symbols"],
    ["from=yesterday", "from"],
    [`from=${iso(hourNow - DAY)}&to=${iso(hourNow - 2 * DAY)}`, "to"],
    [`from=${iso(hourNow - 40 * DAY)}&to=${iso(hourNow)}`, "to"],
    ["from=2999-01-01", "from"],
    ["market=BTC", "market"],
  ])("refuses %s with a 400 naming %s", async (query, field) => {
    const { error } = await refused(`/v1/exports/funding-rates?${query}`, 400);
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details?.[0]?.field).toBe(field);
  });

  it("lets Desk span a longer range than Pro, each as its plan says", async () => {
    const long = `/v1/exports/funding-rates?exchanges=binance&symbols=BTC&from=${iso(hourNow - 60 * DAY)}&to=${iso(hourNow)}`;
    expect((await refused(long, 400)).error.details?.[0]?.message).toBe(`The range may span at most ${planOf("pro").exportRangeDays} days`);
    expect((await request(long, keys.desk)).status).toBe(200);
  });

  it("refuses a `from` before the plan's history with a 403 naming its depth", async () => {
    const { error } = await refused(`/v1/exports/funding-rates?from=${iso(now - 100 * DAY)}&to=${iso(now - 80 * DAY)}`, 403);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toMatch(/^The Pro plan reads 90 days of history: `from` may be \S+ at the earliest; Desk reads 365 days/);
  });

  it("needs a key holding opportunities:read: none is 401, a Free key 403, another method 405", async () => {
    expect((await refused("/v1/exports/funding-rates", 401, null)).error.code).toBe("UNAUTHORIZED");
    expect((await refused("/v1/exports/funding-rates", 403, keys.free)).error.message).toContain("needs opportunities:read");
    const post = await request("/v1/exports/funding-rates", keys.pro, "POST");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("counts against the key's rate limit like every /v1 request", async () => {
    const remaining = async () => Number((await request(`/v1/exports/funding-rates?exchanges=binance&symbols=ETH`, keys.desk)).headers.get("x-ratelimit-remaining"));
    const first = await remaining();
    expect(await remaining()).toBe(first - 1);
  });

  it("is described in the OpenAPI document with both formats and the plans' limits", async () => {
    const document = (await (await request("/v1/openapi.json", null)).json()) as { paths: Record<string, Record<string, { description: string; responses: Record<string, { content?: object }> }>> };
    const operation = document.paths["/v1/exports/funding-rates"]!.get!;
    expect(Object.keys(operation.responses["200"]!.content!)).toEqual(["text/csv", "application/vnd.apache.parquet"]);
    expect(operation.description).toContain(`Pro ${planOf("pro").exportsPerDay}, Desk ${planOf("desk").exportsPerDay}`);
    expect(operation.description).toContain("Pro 31 days, Desk 365 days");
  });
});

describe("the plan's export limits", () => {
  /** The services with one plan's row changed: how a table with other numbers would be enforced. */
  const withPlan = (change: Partial<Plan>): AppServices =>
    Object.create(services, { plans: { value: (tier: Tier) => ({ ...services.plans(tier), ...change }) } }) as AppServices;
  const query = { exchanges: ["binance"], symbols: ["BTC"], from: new Date(now - 2 * DAY), to: new Date(now), format: "csv" as const };
  const actor = (userId: string, tier: Tier = "pro") => ({ userId, mode: "live" as const, tier });

  it("refuses a plan without exports with a 403 naming the plans that include them", async () => {
    await expect(exportResponse({ services, actor: actor("free-account", "free"), query })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: "Funding-history exports are not included in the Free plan: upgrade to Pro or Desk (/account/plan)",
    });
  });

  it("refuses more rows than the plan's cap with a 403 naming the cap, the narrowing and the upgrade", async () => {
    await expect(exportResponse({ services: withPlan({ exportMaxRows: 5 }), actor: actor("capped"), query })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/^This export holds 1[0-9] settlements; the Pro plan exports at most 5 at once: narrow `exchanges`, `symbols` or the range, or upgrade \(Pro 1,000,000, Desk 20,000,000/),
    });
  });

  it("admits the plan's exports per UTC day, then 429 with the wait; refused and HEAD requests spend none", async () => {
    const limited = withPlan({ exportsPerDay: 2 });
    const who = actor(`quota-${now}`);
    await expect(exportResponse({ services: limited, actor: who, query: { ...query, from: new Date(now - 100 * DAY), to: new Date(now - 80 * DAY) } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await exportResponse({ services: limited, actor: who, query, head: true })).body).toBeNull();
    for (let i = 0; i < 2; i++) await (await exportResponse({ services: limited, actor: who, query })).text();
    const error = await exportResponse({ services: limited, actor: who, query }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RATE_LIMITED", message: expect.stringMatching(/^The Pro plan includes 2 exports a day \(UTC\)/) });
    const retryAfter = (error as { extra: { retryAfter: number } }).extra.retryAfter;
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
  });
});

describe("GET /api/exports/funding-rates (the web app's downloads)", () => {
  const route = async () => (await import("@/app/api/exports/funding-rates/route")).GET;
  const download = async (tier: Tier | null, search: string) => {
    state.user = tier === null ? null : users[tier];
    return (await route())(new Request(`${publicOrigin()}/api/exports/funding-rates?${search}`), { params: Promise.resolve({}) });
  };

  it("serves the signed-in user the same file as the /v1 export", async () => {
    const response = await download("pro", selection);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="funding-rates_binance-okx_BTC-ETH_/);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    expect(await response.text()).toBe(await (await request(`/v1/exports/funding-rates?${selection}`)).text());
  });

  it("refuses the signed-out (401), a Free account (403) and bad input (400 naming the field) in the API's envelope", async () => {
    const answer = async (response: Response) => expectEnvelope(response.status, response.headers, await response.text(), "download");
    expect(await answer(await download(null, selection))).toMatchObject({ kind: "error", error: { code: "UNAUTHORIZED" } });
    expect(await answer(await download("free", selection))).toMatchObject({ kind: "error", error: { code: "FORBIDDEN" } });
    expect(await answer(await download("pro", "format=xls"))).toMatchObject({ kind: "error", error: { code: "VALIDATION_ERROR", details: [{ field: "format" }] } });
  });
});
