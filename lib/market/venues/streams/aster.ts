import { binanceStyleStream } from "./binance-style";

/**
 * Aster's futures API is Binance's USDⓈ-M API: the same `!markPrice@arr@1s` stream and row
 * fields (asterdex/api-docs, "aster-finance-futures-api-v3.md", "Mark Price Stream for All
 * market"). Its limits differ: 200 streams and 10 incoming messages a second per connection, a
 * server ping every 5 min answered within 15 min, a cut at 24 h.
 */
export const asterStream = binanceStyleStream({
  venue: "aster",
  url: "wss://fstream.asterdex.com/ws",
  stallAfterMs: 5_000,
  maxLifetimeMs: 24 * 3_600_000,
});
