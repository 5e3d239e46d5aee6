/** A perpetual market on one venue, as a leg of an opportunity or a position names it. */
export interface MarketRef {
  exchange: string;
  market: string;
}
