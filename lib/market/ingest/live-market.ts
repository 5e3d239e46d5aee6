import type { Db } from "@/lib/db";
import { Prisma } from "@/lib/db/generated/client";
import { toFundingSettlement, type FundingSettlement } from "../model/funding-settlement";
import { readIngestionStatus } from "./ingestion-status";
import { readIntervalChangePage } from "./read-interval-changes";
import { readSettlementMarks } from "./read-settlement-marks";
import { borrowHistory } from "./borrow-rate-store";
import type { LiveOpportunities } from "../opportunities/live-opportunities";
import type { LiveCarry } from "../carry/live-carry";
import type { LegHistory, LegHistoryRequest, Market, MarketRef } from "../market";
import type { MarketDepth } from "../books/market-depth";

/** Where live keys' quotes read books: the venues, or the offline sample's recordings while it is served. */
export interface LiveDepth {
  venues: MarketDepth;
  sample: MarketDepth;
}

/** The published sets this process holds in memory. */
export interface LiveSets {
  opportunities: LiveOpportunities;
  carry: LiveCarry;
}

/** The market live keys and the web app read: what ingestion stored and published, and the venues' books. */
export function liveMarket(db: () => Promise<Db>, sets: LiveSets, venueStaleAfterMs: number, depth: LiveDepth): Market {
  // Books of the moment the served set is of: the venues' own once a live round has published,
  // the bundled recordings while the set is still the offline sample.
  const depthNow = async () => ((await sets.opportunities.current()).sample ? depth.sample : depth.venues);
  return {
    venueStaleAfterMs,
    orderBook: async (leg) => (await depthNow()).orderBook(leg),
    spotOrderBook: async (leg) => (await depthNow()).spotOrderBook(leg),
    marginTable: async (leg) => (await depthNow()).marginTable(leg),
    quoteTime: (now) => now,
    opportunities: () => sets.opportunities.current(),
    carryOpportunities: () => sets.carry.current(),
    settlements: async (_symbol, leg, from, to) => {
      const rows = await (await db()).fundingRate.findMany({
        where: { exchange: leg.exchange, market: leg.market, time: { gte: from, lte: to } },
        orderBy: { time: "asc" },
      });
      return rows.map(toFundingSettlement);
    },
    settlementPage: async (w) => {
      const client = await db();
      const where = { exchange: w.exchange, base: w.symbol, time: { gte: w.from, lte: w.to } };
      const [rows, total] = await client.$transaction([
        client.fundingRate.findMany({ where, orderBy: [{ time: "asc" }, { market: "asc" }], skip: w.offset, take: w.limit }),
        client.fundingRate.count({ where }),
      ]);
      return { items: rows.map(toFundingSettlement), total };
    },
    settlementMarks: async (exchange, symbol) => readSettlementMarks(await db(), exchange, symbol),
    borrowRates: async (exchange, asset, from, to) =>
      (await borrowHistory(await db(), exchange, asset, from, to)).map((r) => ({ time: r.time.getTime(), aprPct: r.aprPct })),
    intervalChanges: async (w) => readIntervalChangePage(await db(), w),
    takerFee: async (leg) => (await takerFees(await db(), [leg])).get(legKey(leg)) ?? null,
    legHistories: async (requests, to) => legHistories(await db(), requests, to),
    status: async () => readIngestionStatus(await db(), venueStaleAfterMs),
  };
}

const legKey = (leg: MarketRef) => `${leg.exchange}\u0000${leg.market}`;

/**
 * Two queries whatever the number of legs: every leg's settlements since the earliest `from` (each
 * request then keeps its own range), and each leg's taker fee (takerFees).
 */
async function legHistories(client: Db, requests: readonly LegHistoryRequest[], to: Date): Promise<LegHistory[]> {
  if (requests.length === 0) return [];
  const legs = [...new Map(requests.map((r) => [legKey(r.leg), r.leg])).values()];
  const from = new Date(Math.min(...requests.map((r) => r.from.getTime())));
  const [rows, feeByLeg] = await Promise.all([
    client.fundingRate.findMany({
      where: { OR: legs.map((leg) => ({ exchange: leg.exchange, market: leg.market })), time: { gte: from, lte: to } },
      orderBy: { time: "asc" },
    }),
    takerFees(client, legs),
  ]);
  const settlementsByLeg = new Map<string, FundingSettlement[]>();
  for (const row of rows) {
    const key = legKey(row);
    let own = settlementsByLeg.get(key);
    if (!own) settlementsByLeg.set(key, (own = []));
    own.push(toFundingSettlement(row));
  }
  return requests.map((r) => {
    const start = r.from.getTime();
    return {
      takerFee: feeByLeg.get(legKey(r.leg)) ?? null,
      settlements: (settlementsByLeg.get(legKey(r.leg)) ?? []).filter((s) => Date.parse(s.time) >= start),
    };
  });
}

/**
 * Each leg's taker fee as its venue's newest stored round states it, by `legKey` (absent when that
 * round lacks the market), in one query: the venue's newest round found through the rounds by start
 * and each round's rows by venue, then the market among that round's rows. An index by market and
 * time would also find a delisted market's last fee, but cost the database a fifth of storing each
 * round's 26,000 observations, beside the round's ranking on the same cores.
 */
async function takerFees(client: Db, legs: readonly MarketRef[]): Promise<Map<string, number | null>> {
  const fees = await client.$queryRaw<{ exchange: string; market: string; takerFee: number | null }[]>`
    SELECT l.exchange, l.market, s."takerFee"
    FROM (VALUES ${Prisma.join(legs.map((leg) => Prisma.sql`(${leg.exchange}::text, ${leg.market}::text)`))}) AS l(exchange, market)
    LEFT JOIN LATERAL (
      SELECT r."takerFee" FROM "RoundSnapshot" r
      WHERE r.exchange = l.exchange AND r.market = l.market AND r."roundId" = (
        SELECT i.id FROM "IngestionRound" i
        WHERE EXISTS (SELECT 1 FROM "RoundSnapshot" x WHERE x."roundId" = i.id AND x.exchange = l.exchange)
        ORDER BY i."startedAt" DESC LIMIT 1
      )
      ORDER BY r."observedAt" DESC LIMIT 1
    ) s ON true`;
  return new Map(fees.map((f) => [legKey(f), f.takerFee]));
}
