import type { FundingIntervalChange } from "@/lib/market/model/funding-interval-change";
import type { FundingSettlement } from "@/lib/market/model/funding-settlement";

/** What GET /api/opportunities/:id/history answers in `data`. */
export interface OpportunityHistory {
  id: string;
  long: LegHistory;
  short: LegHistory;
  from: string;
  to: string;
  delayed: boolean;
}

/** One leg's settlements and the changes of its funding interval in the window, oldest first. */
export interface LegHistory {
  exchange: string;
  market: string;
  settlements: FundingSettlement[];
  intervalChanges: FundingIntervalChange[];
}
