import type { Db } from "@/lib/db";
import { toFundingSettlement, type FundingSettlement } from "./funding-settlement";
import type { OpportunityLeg } from "./types";

/** One leg's stored funding settlements in [from, to], oldest first. */
export async function storedLegHistory(db: Db, leg: Pick<OpportunityLeg, "exchange" | "market">, from: Date, to: Date): Promise<FundingSettlement[]> {
  const rows = await db.fundingRate.findMany({
    where: { exchange: leg.exchange, market: leg.market, time: { gte: from, lte: to } },
    orderBy: { time: "asc" },
  });
  return rows.map(toFundingSettlement);
}
