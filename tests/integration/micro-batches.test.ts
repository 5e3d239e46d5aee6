import http from "node:http";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiApp, type ApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import type { OpenDatabase } from "@/lib/db/open-database";
import { LiveRoundEvents } from "@/lib/events/live-round-events";
import { MicroBatchPublisher } from "@/lib/market/ingest/micro-batch-publisher";
import { runIngestionRound } from "@/lib/market/ingest/run-ingestion-round";
import type { MarketSnapshot, Opportunity, VenueId } from "@/lib/market/model/types";
import { columnsOf, itemsOf } from "@/lib/market/opportunities/opportunity-columns";
import { LiveOpportunities, type AppliedRound } from "@/lib/market/opportunities/live-opportunities";
import { load, publishBatch } from "@/lib/market/opportunities/store";
import { createKeyFor, createUser } from "@/tests/support/api-fixtures";
import { closeServer, listenOnLoopback } from "@/tests/support/loopback-server";
import { makeSnapshot, usdtPerp } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { snapshotFetcher } from "./helpers/venue-fetchers";

// A leg pushed by a live feed reaches GET /v1/opportunities (its ETag changes) and the SSE stream
// through one micro-batch, on PGlite and on PostgreSQL (DATABASE_URL); on PostgreSQL a second
// process's reader hears it by the set's notification.

const serverUrl = process.env.DATABASE_URL;
const PERIOD_MS = 1_000;
const VENUES = ["binance", "bybit", "okx"] as const;
const ASSETS = ["BTC", "ETH", "SOL"];

let database: OpenDatabase & { url?: string };
let db: Db;
let services: AppServices;
let app: ApiApp;
let server: http.Server;
let baseUrl: string;
let secret: string;
let publisher: MicroBatchPublisher;
let roundAt: number;

/** Each venue's markets as its round answers them: the same rate everywhere but a little per venue. */
function roundMarkets(venue: VenueId): MarketSnapshot[] {
  const at = VENUES.indexOf(venue as (typeof VENUES)[number]);
  if (at < 0) return [];
  return ASSETS.map((base) => makeSnapshot({ exchange: venue, ...usdtPerp(base), fundingRate: 0.0001 + 0.00001 * at, observedAt: roundAt }));
}

/** A round of the three venues, its set told to `onPublished` (this process's services by default). */
function round(onPublished: (round: AppliedRound) => void = (published) => services.opportunitiesPublished(published)) {
  return runIngestionRound({
    db,
    fetcher: snapshotFetcher(roundMarkets),
    timeoutMs: 5_000,
    retention: { rawDays: 7, hourlyDays: 730 },
    venues: [...VENUES],
    events,
    batches: publisher,
    onPublished,
  });
}

const events = new LiveRoundEvents(5, 3 * 60_000);

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  services = createAppServices(async () => db, { ...process.env });
  app = createApiApp(() => services);
  server = http.createServer(getRequestListener(app.fetch));
  ({ baseUrl } = await listenOnLoopback(server));
  const user = await createUser(db, "desk");
  secret = (await createKeyFor(db, user.id)).secret;
  publisher = new MicroBatchPublisher({ db, periodMs: PERIOD_MS, events, onPublished: (batch) => services.applyOpportunityBatch(batch) });
  roundAt = Date.now() - 5_000;
  // Two rounds: the first set is the events' baseline, the second one they compare with.
  expect((await round()).status).toBe("published");
  expect((await round()).status).toBe("published");
});

afterAll(async () => {
  await publisher?.stop();
  await closeServer(server);
  await services?.stopRecorders();
  await database?.close();
});

async function listOpportunities(etag?: string, symbol = "BTC"): Promise<{ status: number; etag: string | null; items: Opportunity[] }> {
  const response = await fetch(`${baseUrl}/v1/opportunities?symbol=${symbol}`, { headers: { Authorization: `Bearer ${secret}`, ...(etag && { "If-None-Match": etag }) } });
  const body = response.status === 200 ? ((await response.json()) as { data: { items: Opportunity[] } }) : null;
  return { status: response.status, etag: response.headers.get("etag"), items: body?.data.items ?? [] };
}

/** The first SSE frame with an id (an event) on `response`, and when it arrived. */
async function firstEvent(response: Response): Promise<{ at: number; event: string; data: { type: string; data: { opportunity?: Opportunity } } }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the stream ended before an event");
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(frame.split("\n").filter((l) => !l.startsWith(":")).map((l) => [l.slice(0, l.indexOf(": ")), l.slice(l.indexOf(": ") + 2)]));
      if (fields.id) {
        await reader.cancel().catch(() => undefined);
        return { at: performance.now(), event: fields.event!, data: JSON.parse(fields.data!) };
      }
    }
  }
}

/**
 * `db` with its reads of the published set counted: whole-set reads select the items (store.ts
 * load); `onHeadRead` runs as any other read of the set's row (the head) starts.
 */
function countingSetReads(db: Db) {
  const counted = { db, wholeReads: 0, headReads: 0, onHeadRead: undefined as (() => void) | undefined };
  counted.db = new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== "opportunitySet") return value;
      return new Proxy(value as Db["opportunitySet"], {
        get(sets, name, setsReceiver) {
          const method = Reflect.get(sets, name, setsReceiver) as unknown;
          if (name !== "findUnique" || typeof method !== "function") return method;
          return (args: { select?: { items?: boolean } }) => {
            if (args.select?.items) counted.wholeReads += 1;
            else {
              counted.headReads += 1;
              counted.onHeadRead?.();
            }
            return (method as (a: unknown) => unknown).call(sets, args);
          };
        },
      });
    },
  });
  return counted;
}

describe("a micro-batch", () => {
  it("reaches GET /v1/opportunities (a new ETag) and the SSE stream, as a patch on the set rather than a rewrite", async () => {
    // A first batch (SOL), so the one measured below is not the process's first use of the code and connections.
    const cold = await listOpportunities(undefined, "SOL");
    const coldAt = performance.now();
    publisher.push([makeSnapshot({ exchange: "okx", ...usdtPerp("SOL"), fundingRate: 0.0004, observedAt: Date.now() })]);
    while ((await listOpportunities(cold.etag!, "SOL")).status === 304) await new Promise((r) => setTimeout(r, 5));
    console.info(`first batch of the process: push → /v1/opportunities ${(performance.now() - coldAt).toFixed(1)} ms`);
    await db.marketEvent.deleteMany();
    // A period since that batch began: the push below comes after a quiet spell, as a lone update does.
    await new Promise((r) => setTimeout(r, PERIOD_MS));

    const before = await listOpportunities();
    expect(before.status).toBe(200);
    expect(before.items).toHaveLength(3);
    expect((await listOpportunities(before.etag!)).status).toBe(304);
    const head = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" }, select: { version: true, items: true } });

    const stream = await fetch(`${baseUrl}/v1/stream?types=opportunity.opened,opportunity.updated`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(stream.status).toBe(200);
    while (services.eventFeed.subscribers === 0) await new Promise((r) => setTimeout(r, 5));
    const framed = firstEvent(stream);

    // Binance's BTC funding jumps: every BTC pair with a Binance leg moves far past the threshold.
    const pushedAt = performance.now();
    publisher.push([makeSnapshot({ exchange: "binance", ...usdtPerp("BTC"), fundingRate: 0.002, observedAt: Date.now() })]);
    let after = before;
    const giveUp = Date.now() + 10_000;
    while (after.etag === before.etag) {
      if (Date.now() > giveUp) throw new Error(`no new ETag: ${JSON.stringify(publisher.counts)}`);
      await new Promise((r) => setTimeout(r, 5));
      after = await listOpportunities(before.etag!);
      if (after.status === 304) after = { ...after, etag: before.etag };
    }
    const apiMs = performance.now() - pushedAt;
    const frame = await framed;
    const sseMs = frame.at - pushedAt;
    console.info(`push → /v1/opportunities ${apiMs.toFixed(1)} ms, push → SSE frame ${sseMs.toFixed(1)} ms (${serverUrl ? "PostgreSQL" : "PGlite"}, period ${PERIOD_MS} ms)`);

    expect(after.status).toBe(200);
    const binanceShort = after.items.find((o) => o.short.exchange === "binance")!;
    expect(binanceShort.short.funding_rate).toBe(0.002);
    // Binance's BTC legs turn from long to short: their pairs close under one id and open under the other.
    expect(frame.event).toBe("opportunity.opened");
    expect(frame.data.data.opportunity?.symbol).toBe("BTC");

    // One patch, the version one up, the set's own items untouched; reading it back gives what this process serves.
    const [set, patches] = await Promise.all([db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } }), db.opportunityPatch.findMany()]);
    expect(set.version).toBe(head.version + 1);
    expect(Buffer.from(set.items!).equals(Buffer.from(head.items!))).toBe(true);
    // Each re-ranked its asset in part: the pairs with a leg on the pushed venue, 2 of 3.
    expect(patches.map((p) => [p.version, p.bases, p.venues])).toEqual([
      [set.version - 1, ["SOL"], { SOL: ["okx"] }],
      [set.version, ["BTC"], { BTC: ["binance"] }],
    ]);
    const served = (await services.market("live").opportunities()).items;
    expect(itemsOf((await load(db))!.columns)).toEqual(served);
    // Events for BTC's pairs only.
    const events = await db.marketEvent.findMany({ where: { type: { startsWith: "opportunity." } } });
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((e) => e.type).sort()).toEqual(["opportunity.closed", "opportunity.closed", "opportunity.opened", "opportunity.opened"]);
    for (const e of events) expect((e.data as { symbol?: string; opportunity?: Opportunity }).symbol ?? (e.data as { opportunity: Opportunity }).opportunity.symbol).toBe("BTC");
  });

  it("is superseded by the next round, which compacts the patches; a batch never writes over a newer set", async () => {
    const { version: batchVersion } = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } });
    expect((await round()).status).toBe("published");
    const { version } = await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } });
    expect(version).toBe(batchVersion + 1);
    expect(await db.opportunityPatch.count()).toBe(0);
    const [btc] = itemsOf((await load(db))!.columns).filter((o) => o.symbol === "BTC");
    expect(await publishBatch(db, batchVersion, { bases: ["BTC"], items: (await load(db))!.columns, asOf: new Date() })).toBeNull();
    expect((await db.opportunitySet.findUniqueOrThrow({ where: { id: "live" } })).version).toBe(version);
    expect(await db.opportunityPatch.count()).toBe(0);
    expect(btc).toBeDefined();
  });

  it("is caught up on by patches when this process applied its own batch while checking the set, never by reading the whole set again", async () => {
    const counted = countingSetReads(db);
    const reader = new LiveOpportunities(async () => counted.db, 3_600_000);
    const held = itemsOf((await load(db))!.columns);
    await reader.current();
    expect(counted.wholeReads).toBe(1);
    const onVersion = reader.heldVersion;
    const moved = held.filter((o) => o.symbol === "SOL").map((o) => ({ ...o, apr: o.apr + 1 }));
    const items = columnsOf(moved);
    const version = await publishBatch(db, onVersion, { bases: ["SOL"], items, asOf: new Date() });
    expect(version).toBe(onVersion + 1);
    // The check starts from the version held; the batch is applied while it reads the head.
    let applied = false;
    counted.onHeadRead = () => {
      counted.onHeadRead = undefined;
      reader.applyBatch({ version: version!, previousVersion: onVersion, bases: new Set(["SOL"]), items });
      applied = true;
    };
    await reader.refresh();
    expect(applied).toBe(true);
    expect(reader.heldVersion).toBe(version);
    expect((await reader.current()).items.filter((o) => o.symbol === "SOL").map((o) => o.apr)).toEqual(moved.map((o) => o.apr));
    expect(counted.wholeReads).toBe(1);
  });

  it("hears the notice of its own batch before the batch answers, and never reads it back", async () => {
    const counted = countingSetReads(db);
    const reader = new LiveOpportunities(async () => counted.db, 3_600_000);
    const held = await reader.current();
    const reads = [counted.wholeReads, counted.headReads];
    const onVersion = reader.heldVersion;
    const items = columnsOf(held.items.filter((o) => o.symbol === "ETH").map((o) => ({ ...o, apr: o.apr + 2 })));
    const publishing = publishBatch(db, onVersion, { bases: ["ETH"], items, asOf: new Date() });
    // Its notice, as PostgreSQL may deliver it before the publish's own answer.
    reader.notified(onVersion + 1);
    const version = await publishing;
    reader.applyBatch({ version: version!, previousVersion: onVersion, bases: new Set(["ETH"]), items });
    await new Promise((r) => setTimeout(r, 50));
    expect(reader.heldVersion).toBe(version);
    expect([counted.wholeReads, counted.headReads]).toEqual(reads);

    // Another process's batch, noticed alone, is caught up on from the database.
    const theirs = columnsOf(held.items.filter((o) => o.symbol === "ETH"));
    const next = await publishBatch(db, version!, { bases: ["ETH"], items: theirs, asOf: new Date() });
    reader.notified(next!);
    while (reader.heldVersion !== next) await new Promise((r) => setTimeout(r, 5));
    expect(counted.headReads).toBeGreaterThan(reads[1]!);
    expect(counted.wholeReads).toBe(reads[0]);
  });

  it("takes a round's set as this process published it, without reading it back", async () => {
    const counted = countingSetReads(db);
    const reader = new LiveOpportunities(async () => counted.db, 3_600_000);
    await reader.current();
    expect((await round((published) => reader.applyRound(published))).status).toBe("published");
    const stored = (await load(db))!;
    expect(reader.heldVersion).toBe(stored.version);
    const served = await reader.current();
    expect(served.items).toEqual(itemsOf(stored.columns));
    expect(served.asOf).toBe(stored.asOf.toISOString());
    expect(counted.wholeReads).toBe(1);
  });

  it.skipIf(!serverUrl)("reaches a second process's reader by the set's notification, not its version check", async () => {
    const elsewhere = new LiveOpportunities(async () => db, 3_600_000);
    const listening = elsewhere.listen(database.url!);
    try {
      await listening.ready;
      const before = (await elsewhere.current()).items.find((o) => o.symbol === "ETH" && (o.long.exchange === "okx" || o.short.exchange === "okx"))!;
      const versionBefore = elsewhere.heldVersion;
      const pushedAt = performance.now();
      publisher.push([makeSnapshot({ exchange: "okx", ...usdtPerp("ETH"), fundingRate: -0.003, observedAt: Date.now() })]);
      let moved: Opportunity | undefined;
      while (!moved) {
        await new Promise((r) => setTimeout(r, 5));
        moved = (await elsewhere.current()).items.find((o) => o.id !== before.id && o.symbol === "ETH" && o.long.exchange === "okx");
      }
      console.info(`push → a second process's reader ${(performance.now() - pushedAt).toFixed(1)} ms (PostgreSQL notification)`);
      expect(moved.long.funding_rate).toBe(-0.003);
      expect(elsewhere.heldVersion).toBe(versionBefore + 1);
    } finally {
      await listening.stop();
    }
  });
});
