// GET /metrics end to end in-process: refused without HEALTH_DETAILS_TOKEN; with it, Prometheus's
// text whose counters move with the requests made (per route template and status, rate-limit
// decisions by plan) and whose gauges read the shared state (delivery queue, venue data age,
// database, open streams).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { OpenDatabase } from "@/lib/db/open-database";
import { enqueueJobs } from "@/lib/jobs/job-queue";
import { DELIVERY_QUEUE } from "@/lib/webhooks/delivery-queue";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { createTestDatabase } from "@/tests/support/test-database";
import { withRoomInWindow } from "@/tests/support/fixed-window";

const TOKEN = "operator-metrics-token";
const saved = process.env.HEALTH_DETAILS_TOKEN;
let database: OpenDatabase;
let services: AppServices;
let app: ReturnType<typeof createApiApp>;

beforeAll(async () => {
  process.env.HEALTH_DETAILS_TOKEN = TOKEN;
  database = await createTestDatabase();
  // A Pro key may make 5 requests a minute here, so a 429 takes a handful of requests.
  services = createAppServices(async () => database.db, { ...process.env, RATE_LIMIT_SCALE: "0.05", REDIS_URL: "", UPSTASH_REDIS_REST_URL: "" });
  app = createApiApp(() => services);
});
afterAll(async () => {
  await services?.stopRecorders();
  await database?.close();
  if (saved === undefined) delete process.env.HEALTH_DETAILS_TOKEN;
  else process.env.HEALTH_DETAILS_TOKEN = saved;
});

function call(path: string, headers: Record<string, string> = {}) {
  return app.fetch(new Request(`http://localhost${path}`, { headers }));
}

async function scrape(): Promise<string> {
  const response = await call("/metrics", { Authorization: `Bearer ${TOKEN}` });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** A sample's value in Prometheus's text format; 0 for a series not written yet. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? "").split(/,(?=[a-zA-Z_]\w*=")/).filter(Boolean);
    if (wanted.every((pair) => present.includes(pair))) return Number(match[3]);
  }
  return 0;
}

/** The requests below must fall into one rate-limit window (a clock minute). */
const earlyInAMinute = () => withRoomInWindow(60_000, 15_000);

describe("GET /metrics", () => {
  it("is refused without the health details token, in the error envelope, showing nothing", async () => {
    const attempts: Record<string, string>[] = [{}, { Authorization: "Bearer wrong-token" }, { Authorization: TOKEN }];
    for (const headers of attempts) {
      const response = await call("/metrics", headers);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      const body = await response.json();
      expect(body.error.code).toBe("UNAUTHORIZED");
      expect(JSON.stringify(body)).not.toContain("fods_");
    }
  });

  it("counts each route's answers under its template and status, and how long they took", async () => {
    const user = await createUser(database.db, "desk");
    const key = await createKeyFor(database.db, user.id);
    const auth = { Authorization: `Bearer ${key.secret}` };
    const route = { route: "GET /v1/auth/verify", status: "200" };
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await call("/v1/auth/verify", auth)).status).toBe(200);
    expect((await call("/v1/no-such-thing-a1")).status).toBe(401);
    expect((await call("/v1/no-such-thing-b2")).status).toBe(401);
    const after = await scrape();
    expect(sample(after, "fods_http_requests_total", route) - sample(before, "fods_http_requests_total", route)).toBe(3);
    expect(sample(after, "fods_http_request_duration_seconds_count", route) - sample(before, "fods_http_request_duration_seconds_count", route)).toBe(3);
    const unmatched = { route: "unmatched", status: "401" };
    expect(sample(after, "fods_http_requests_total", unmatched) - sample(before, "fods_http_requests_total", unmatched)).toBe(2);
    // Paths as sent never become labels.
    expect(after).not.toContain("no-such-thing");
    // The scrape before this one was counted too, under its own path.
    expect(sample(after, "fods_http_requests_total", { route: "GET /metrics", status: "200" })).toBeGreaterThanOrEqual(1);
  });

  it("counts rate-limit decisions by plan: a 429 is a refusal", async () => {
    const user = await createUser(database.db, "pro");
    const key = await createKeyFor(database.db, user.id);
    const auth = { Authorization: `Bearer ${key.secret}` };
    const before = await scrape();
    await earlyInAMinute();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await call("/v1/auth/verify", auth)).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const after = await scrape();
    const delta = (labels: Record<string, string>, name = "fods_rate_limit_decisions_total") => sample(after, name, labels) - sample(before, name, labels);
    expect(delta({ decision: "allowed", tier: "pro" })).toBe(statuses.filter((s) => s === 200).length);
    expect(delta({ decision: "refused", tier: "pro" })).toBe(statuses.filter((s) => s === 429).length);
    expect(delta({ route: "GET /v1/auth/verify", status: "429" }, "fods_http_requests_total")).toBe(statuses.filter((s) => s === 429).length);
  });

  it("reads the shared state when scraped: the delivery queue, venues' data age, the database, open streams", async () => {
    await enqueueJobs(database.db, DELIVERY_QUEUE, [{ delivery_id: "due" }]);
    await enqueueJobs(database.db, DELIVERY_QUEUE, [{ delivery_id: "retry" }], new Date(Date.now() + 3_600_000));
    const lastSuccessAt = new Date(Date.now() - 30_000);
    await database.db.venueHealth.create({ data: { id: "binance", status: "ok", lastSuccessAt, lastAttemptAt: lastSuccessAt } });
    const release = services.streamSlots.acquire("acct_metrics", 2)!;
    const text = await scrape();
    release();
    expect(sample(text, "fods_webhook_queue_depth", { state: "due" })).toBe(1);
    expect(sample(text, "fods_webhook_queue_depth", { state: "scheduled" })).toBe(1);
    expect(sample(text, "fods_venue_data_age_seconds", { venue: "binance" })).toBeGreaterThanOrEqual(30);
    expect(sample(text, "fods_venue_data_age_seconds", { venue: "binance" })).toBeLessThan(90);
    expect(text).not.toMatch(/fods_venue_data_age_seconds\{venue="okx"\}/); // never succeeded: no age
    expect(sample(text, "fods_stream_connections")).toBe(1);
    if (database.driver === "pglite") expect(sample(text, "fods_db_pglite_wasm_memory_bytes")).toBeGreaterThan(0);
    else expect(sample(text, "fods_db_pool_clients", { pool: "prisma", state: "total" })).toBeGreaterThan(0);
    expect(sample(await scrape(), "fods_stream_connections")).toBe(0);
    // The process's own figures come along.
    expect(text).toContain("process_cpu_user_seconds_total");
  });
});
