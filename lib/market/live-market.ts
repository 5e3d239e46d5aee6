import type { Db } from "@/lib/db";
import { toFundingSettlement } from "./funding-settlement";
import { readIngestionStatus } from "./ingest/ingestion-status";
import type { LiveOpportunities } from "./live-opportunities";
import type { Market } from "./market";

/** The market live keys and the web app read: what ingestion stored and published. */
export function liveMarket(db: () => Promise<Db>, opportunities: LiveOpportunities, venueStaleAfterMs: number): Market {
  return {
    opportunities: () => opportunities.current(),
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
    takerFee: async (leg) => {
      const latest = await (await db()).roundSnapshot.findFirst({
        where: { exchange: leg.exchange, market: leg.market },
        orderBy: { observedAt: "desc" },
        select: { takerFee: true },
      });
      return latest?.takerFee ?? null;
    },
    status: async () => readIngestionStatus(await db(), venueStaleAfterMs),
  };
}
