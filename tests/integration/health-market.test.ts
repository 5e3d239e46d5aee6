import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp } from "@/lib/api/app";
import { openServiceDatabase } from "@/lib/db";
import { releaseDataDirLock } from "@/lib/db/data-dir-lock";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { VENUE_IDS } from "@/lib/market/model/types";
import { storedExclusions } from "@/lib/market/model/pairing-exclusions";
import { restoreEnv, saveEnv } from "@/tests/support/saved-env";

// /healthz reads the process's own database, so this file points the process at a throw-away
// embedded one (also in CI's PostgreSQL pass: the shared server's default database stays untouched).
const dir = mkdtempSync(path.join(os.tmpdir(), "fods-health-"));
const saved = saveEnv("DATA_DIR", "DATABASE_URL", "HEALTH_DETAILS_TOKEN");
const TOKEN = "operator-health-token";
const asOperator = { headers: { Authorization: `Bearer ${TOKEN}` } };

beforeAll(async () => {
  process.env.DATA_DIR = dir;
  process.env.DATABASE_URL = "";
  process.env.HEALTH_DETAILS_TOKEN = TOKEN;
  // Migrating takes longer than the health check waits for the database.
  await openServiceDatabase();
});
afterAll(async () => {
  await (await openServiceDatabase()).close();
  releaseDataDirLock(dir);
  rmSync(dir, { recursive: true, force: true });
  restoreEnv(saved);
});

describe("GET /healthz", () => {
  it("tells everyone else the status alone, with the same HTTP status", async () => {
    const app = createApiApp();
    const attempts: Record<string, string>[] = [{}, { Authorization: "Bearer wrong-token" }, { Authorization: TOKEN }];
    for (const headers of attempts) {
      const response = await app.fetch(new Request("http://localhost/healthz", { headers }));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    }
  }, 60_000);

  it("shows each venue's health and the latest ingestion round", async () => {
    const app = createApiApp();
    const first = await (await app.fetch(new Request("http://localhost/healthz", asOperator))).json();
    expect(first.market.venues).toHaveLength(VENUE_IDS.length);
    expect(first.market.last_round).toBeNull();
    expect(first.pairing).toBeNull();
    for (const venue of first.market.venues) expect(venue).toMatchObject({ status: "stale", last_success_at: null });

    const { db } = await openServiceDatabase();
    const at = new Date();
    await db.venueHealth.create({ data: { id: "okx", status: "ok", lastAttemptAt: at, lastSuccessAt: at, marketsCount: 240 } });
    await db.ingestionRound.create({ data: { startedAt: at, finishedAt: at, status: "published", opportunities: 12 } });
    const response = await app.fetch(new Request("http://localhost/healthz", asOperator));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.market.venues.find((v: { id: string }) => v.id === "okx")).toEqual({
      id: "okx",
      name: "OKX",
      status: "ok",
      last_success_at: at.toISOString(),
      data_age_seconds: expect.any(Number),
      stale_after_seconds: expect.any(Number),
      last_error: null,
      markets_count: 240,
    });
    expect(body.market.last_round).toMatchObject({ status: "published", opportunities: 12, finished_at: at.toISOString() });
  }, 60_000);

  it("lists the legs the newest published round left out by the price bound, per venue", async () => {
    const app = createApiApp();
    const { db } = await openServiceDatabase();
    const leg = { exchange: "gate", market: "NEIRO/USDT:USDT", venue_base: "NEIRO", asset: "NEIRO", unit_price: 0.051, median_price: 0.000451 };
    const startedAt = new Date(Date.now() + 60_000);
    const round = await db.ingestionRound.create({
      data: { startedAt, finishedAt: startedAt, status: "published", opportunities: 3, excludedLegs: storedExclusions(0.05, [leg]) },
    });
    const body = await (await app.fetch(new Request("http://localhost/healthz", asOperator))).json();
    expect(body.pairing).toEqual({
      round_id: round.id,
      round_started_at: startedAt.toISOString(),
      price_bound: 0.05,
      venues: [{ exchange: "gate", excluded: 1, legs: [leg] }],
    });
  }, 60_000);

  it("reports the response cache of the hot reads: what it holds against its budget, hits and misses", async () => {
    const app = createApiApp();
    const { db } = await openServiceDatabase();
    const user = await createUser(db, "pro");
    const { secret } = await createKeyFor(db, user.id);
    const read = () => app.fetch(new Request("http://localhost/v1/opportunities?limit=1", { headers: { Authorization: `Bearer ${secret}` } }));
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    const body = await (await app.fetch(new Request("http://localhost/healthz", asOperator))).json();
    expect(body.response_cache).toEqual({
      entries: expect.any(Number),
      bytes: expect.any(Number),
      max_bytes: 64 * 1024 * 1024,
      evictions: 0,
      hits: expect.any(Number),
      misses: expect.any(Number),
    });
    expect(body.response_cache.entries).toBeGreaterThanOrEqual(1);
    expect(body.response_cache.bytes).toBeGreaterThan(0);
    expect(body.response_cache.hits).toBeGreaterThanOrEqual(1);
    expect(body.response_cache.misses).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
