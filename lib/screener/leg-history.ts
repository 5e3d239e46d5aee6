import type { FundingSettlement } from "@/lib/market/funding-settlement";

/** What GET /api/opportunities/:id/history answers in `data`. */
export interface OpportunityHistory {
  id: string;
  long: { exchange: string; market: string; settlements: FundingSettlement[] };
  short: { exchange: string; market: string; settlements: FundingSettlement[] };
  from: string;
  to: string;
  delayed: boolean;
}
