import { HIP3_VENUE_IDS } from "../../market/model/hip3-venues";
import type { VenueHistoryReader } from "../history-types";
import { hyperliquidFundingHistory } from "./hyperliquid";

/**
 * Each HIP-3 dex's funding history: Hyperliquid's `fundingHistory` for the dex's prefixed coin
 * (`{"type":"fundingHistory","coin":"xyz:XYZ100",…}`), as the docs' HIP-3 example shows it, one
 * reader a venue so the backfill plans each dex's markets as its own.
 */
export const HIP3_HISTORY_READERS: readonly VenueHistoryReader[] = HIP3_VENUE_IDS.map((venue) => hyperliquidFundingHistory(venue));
