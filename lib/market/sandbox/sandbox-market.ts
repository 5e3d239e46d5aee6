import type { FundingSettlement } from "../model/funding-settlement";
import { venueFreshness, type IngestionStatus } from "../model/venue-status";
import type { Market, MarketRef } from "../market";
import { sandboxFundingHistory, sandboxHistoryKey } from "./sandbox-funding-history";
import { sandboxIntervalChanges } from "./sandbox-interval-changes";
import { sandboxSnapshot } from "./sandbox-snapshot";
import { sandboxBorrowRates, sandboxCarrySnapshot, sandboxSpotLegs } from "./sandbox-carry";
import type { SpotLeg } from "../carry/spot-leg";
import { AppError } from "@/lib/errors";
import type { MarketDepth } from "../books/market-depth";
import { generateSandboxMarket } from "./generate-sandbox-market";
import { sandboxMarginTable, sandboxOrderBook, sandboxSpotOrderBook } from "./sandbox-depth";
import { MINUTE_MS, utcMinute } from "./utc-minute";
import type { MarketSnapshot } from "../model/types";
import { VENUE_NAMES } from "../venues/venue-names";

const STALE_ERROR = "sandbox: this venue is always stale, to test against";

/**
 * The sandbox market moves every minute, as live ingestion does by default, so its data is stale
 * after three of those minutes, whatever the live interval is configured to: its stale venue is
 * always further behind than that (lib/market/sandbox/generate-sandbox-market.ts).
 */
export const SANDBOX_STALE_AFTER_MS = 3 * 60_000;

/** The sandbox's settlements of one asset on one venue in [from, to]; it keeps 7 days, so older parts of a range are empty. */
function inRange(exchange: string, symbol: string, from: Date, to: Date): FundingSettlement[] {
  const [start, end] = [from.getTime(), to.getTime()];
  return (sandboxFundingHistory(to).get(sandboxHistoryKey(exchange, symbol)) ?? []).filter((r) => {
    const time = Date.parse(r.time);
    return time >= start && time <= end;
  });
}

function sandboxTakerFee(leg: MarketRef, now: Date): number | null {
  return generateSandboxMarket(now).snapshots.find((s) => s.exchange === leg.exchange && s.market === leg.market)?.takerFee ?? null;
}

/**
 * The sandbox's books and tiers (sandbox/sandbox-depth.ts) of the minute `clock` is in: the
 * minute's market is generated once, and each quote finds its legs' snapshots by key.
 */
function sandboxDepth(clock: () => Date): MarketDepth {
  let generated: { minute: number; snapshots: Map<string, MarketSnapshot>; spots?: Map<string, SpotLeg> } | undefined;
  const minuteNow = () => {
    const minute = utcMinute(clock());
    if (generated?.minute !== minute) {
      const market = generateSandboxMarket(new Date(minute * MINUTE_MS));
      generated = { minute, snapshots: new Map(market.snapshots.map((s) => [keyOf(s), s])) };
    }
    return generated;
  };
  const snapshotOf = (leg: MarketRef) => {
    const { minute, snapshots } = minuteNow();
    const snapshot = snapshots.get(keyOf(leg));
    if (!snapshot) throw new AppError("VENUE_UNAVAILABLE", `The sandbox lists no ${leg.market} on ${leg.exchange}`);
    return { snapshot, minute };
  };
  // The minute's spot markets (sandbox-carry.ts), made from its perpetuals on the first spot book asked for.
  const spotOf = (leg: MarketRef) => {
    const now = minuteNow();
    now.spots ??= new Map(sandboxSpotLegs([...now.snapshots.values()], new Date(now.minute * MINUTE_MS)).map((s) => [keyOf(s), s]));
    const spot = now.spots.get(keyOf(leg));
    if (!spot) throw new AppError("VENUE_UNAVAILABLE", `The sandbox lists no spot market ${leg.market} on ${leg.exchange}`);
    return { spot, minute: now.minute };
  };
  return {
    orderBook: async (leg) => {
      const { snapshot, minute } = snapshotOf(leg);
      return sandboxOrderBook(snapshot, minute);
    },
    spotOrderBook: async (leg) => {
      const { spot, minute } = spotOf(leg);
      return sandboxSpotOrderBook(spot, minute);
    },
    marginTable: async (leg) => sandboxMarginTable(snapshotOf(leg).snapshot),
    // A test key's quote is of the minute's start, like everything else the sandbox gives it.
    quoteTime: () => new Date(utcMinute(clock()) * MINUTE_MS),
  };
}

const keyOf = (leg: MarketRef) => `${leg.exchange}\u0000${leg.market}`;

/** The market test keys read: generated from the clock, the same for everyone, never live data. */
export function sandboxMarket(clock: () => Date = () => new Date()): Market {
  const opportunities = async () => sandboxSnapshot(clock());
  return {
    venueStaleAfterMs: SANDBOX_STALE_AFTER_MS,
    ...sandboxDepth(clock),
    opportunities,
    carryOpportunities: async () => sandboxCarrySnapshot(clock()),
    settlements: async (symbol, leg, from, to) => inRange(leg.exchange, symbol, from, to).filter((r) => r.market === leg.market),
    settlementPage: async (w) => {
      const all = inRange(w.exchange, w.symbol, w.from, w.to);
      return { items: all.slice(w.offset, w.offset + w.limit), total: all.length };
    },
    settlementMarks: async (exchange, symbol) =>
      (sandboxFundingHistory(clock()).get(sandboxHistoryKey(exchange, symbol)) ?? [])
        .map((r) => ({ market: r.market, time: Date.parse(r.time), intervalHours: r.funding_interval_hours, source: r.source }))
        .sort((a, b) => (a.market < b.market ? -1 : a.market > b.market ? 1 : a.time - b.time)),
    borrowRates: async (exchange, asset, from, to) => sandboxBorrowRates(exchange, asset, from, to),
    intervalChanges: async (w) => sandboxIntervalChanges(clock(), w),
    takerFee: async (leg, now) => sandboxTakerFee(leg, now),
    legHistories: async (requests, to) =>
      requests.map((r) => ({
        takerFee: sandboxTakerFee(r.leg, to),
        settlements: inRange(r.leg.exchange, r.symbol, r.from, to).filter((s) => s.market === r.leg.market),
      })),
    status: async () => {
      const now = clock();
      return sandboxStatus(generateSandboxMarket(now), (await opportunities()).count, now.getTime());
    },
  };
}

function sandboxStatus(market: ReturnType<typeof generateSandboxMarket>, opportunities: number, now: number): IngestionStatus {
  const markets = (id: string) => market.snapshots.filter((s) => s.exchange === id).length;
  return {
    venues: market.venues.map((v) => ({
      id: v.id,
      name: VENUE_NAMES[v.id],
      ...venueFreshness({ status: v.status, lastSuccessAt: new Date(v.lastSuccessAt) }, SANDBOX_STALE_AFTER_MS, now),
      last_success_at: v.lastSuccessAt,
      last_error: v.status === "stale" ? STALE_ERROR : null,
      markets_count: markets(v.id),
    })),
    last_round: {
      id: `sandbox_${Date.parse(market.asOf) / 60_000}`,
      status: "published",
      started_at: market.asOf,
      finished_at: market.asOf,
      venues_done: market.venues.length,
      venues_total: market.venues.length,
      opportunities,
      venues: market.venues.map((v) => ({
        exchange: v.id,
        status: v.status,
        markets: v.status === "ok" ? markets(v.id) : 0,
        error: v.status === "stale" ? STALE_ERROR : null,
        duration_ms: 0,
      })),
    },
  };
}
