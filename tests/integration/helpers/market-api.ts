// The market the portfolio and simulation API tests share: the API app in-process on a fresh
// database whose live set holds BTC long binance (8h) / short hyperliquid (1h), with helpers for
// the taker fees and settlements those legs are priced with.
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { usdtPerp } from "@/tests/support/market/make-snapshot";
import { afterAll, beforeAll, expect } from "vitest";
import { expectEnvelope, type Envelope } from "./api-envelope";
import { btcBinanceHyperliquid, liveOpportunity, seedLiveOpportunities } from "@/tests/support/api-fixtures";
import { startedInBeforeAll } from "@/tests/support/started-in-before-all";
import { createTestDatabase } from "@/tests/support/test-database";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface SendOptions {
  contentType?: string;
  idempotencyKey?: string;
}

export interface MarketApi {
  database: OpenDatabase;
  db: Db;
  services: AppServices;
  app: ReturnType<typeof createApiApp>;
  /** One request with a bearer key; the reply must be a well-formed envelope. */
  send(method: string, path: string, key: string, body?: string, options?: SendOptions): Promise<SentRequest>;
  close(): Promise<void>;
}

export interface SentRequest {
  status: number;
  envelope: Envelope;
  headers: Headers;
}

/**
 * The API app on a fresh database whose live set, published a minute ago, lists
 * BTC-binance-hyperliquid (mixed intervals), ETH-okx-gate and LIVEONLY-binance-bybit.
 */
export async function startMarketApi(): Promise<MarketApi> {
  const database = await createTestDatabase();
  const db = database.db;
  const services = createAppServices(async () => db);
  const app = createApiApp(() => services);
  await seedLiveOpportunities(db, [btcBinanceHyperliquid(), liveOpportunity("ETH", 30, "okx", "gate"), liveOpportunity("LIVEONLY", 42)], new Date(Date.now() - 60_000));
  return {
    database,
    db,
    services,
    app,
    async send(method, path, key, body, options = {}) {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      if (body !== undefined) headers["Content-Type"] = options.contentType ?? "application/json";
      if (options.idempotencyKey !== undefined) headers["Idempotency-Key"] = options.idempotencyKey;
      const response = await app.fetch(new Request(`http://localhost${path}`, { method, headers, body }));
      const envelope = expectEnvelope(response.status, response.headers, await response.text(), `${method} ${path}`);
      return { status: response.status, envelope, headers: response.headers };
    },
    async close() {
      await services.stopRecorders();
      await database.close();
    },
  };
}

/**
 * startMarketApi for a test file: started before the file's own hooks (call it first), closed after
 * its tests.
 */
export function marketApiForFile(): Omit<MarketApi, "close"> {
  let api: MarketApi | undefined;
  beforeAll(async () => {
    api = await startMarketApi();
  });
  afterAll(() => api?.close());
  return startedInBeforeAll("marketApiForFile", () => api);
}

/** The data of a success envelope, after checking the status. */
export function dataOf(result: SentRequest, status: number): Json {
  expect(result.status, JSON.stringify(result.envelope)).toBe(status);
  if (result.envelope.kind !== "success") throw new Error("expected success");
  return result.envelope.data as Json;
}

/** The error of an error envelope, after checking the status. */
export function errorOf(result: SentRequest, status: number) {
  expect(result.status, JSON.stringify(result.envelope)).toBe(status);
  if (result.envelope.kind !== "error") throw new Error("expected an error");
  return result.envelope.error;
}

/** One published round in which binance's BTC/USDT:USDT states these taker fees (and nothing else). */
export async function seedBinanceBtcTakerFees(db: Db, fees: readonly { takerFee: number; observedAt: Date }[]): Promise<void> {
  // One round a fee, started when it was observed, as rounds store a market once each.
  for (const fee of fees) {
    const round = await db.ingestionRound.create({ data: { startedAt: fee.observedAt, status: "published" } });
    await db.roundSnapshot.create({ data: { roundId: round.id, exchange: "binance", ...usdtPerp("BTC"), ...fee } });
  }
}

/**
 * Observed settlements of the BTC legs at `times`: hyperliquid at every one (0.005 %, 1h), binance
 * at the first and every eighth after it (0.01 %, 8h), the rates btcBinanceHyperliquid() lists.
 */
export async function seedBtcSettlements(db: Db, times: readonly Date[]): Promise<void> {
  const rows = [];
  for (const [k, time] of times.entries()) {
    if (k % 8 === 0) rows.push({ exchange: "binance", market: "BTC/USDT:USDT", base: "BTC", time, rate: 0.0001, intervalHours: 8, source: "observed" });
    rows.push({ exchange: "hyperliquid", market: "BTC/USDC:USDC", base: "BTC", time, rate: 0.00005, intervalHours: 1, source: "observed" });
  }
  await db.fundingRate.createMany({ data: rows });
}
