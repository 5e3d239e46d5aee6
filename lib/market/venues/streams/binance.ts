import { binanceStyleStream } from "./binance-style";

/**
 * Binance USDⓈ-M futures. Since the routed endpoints (2026-04) mark-price and funding streams
 * are served on the `/market` path; the unrouted `fstream` URL serves book data only. Limits
 * (developers.binance.com, USDⓈ-M "Websocket Market Streams"): 1024 streams and 10 incoming
 * messages a second per connection, a server ping every 3 min answered within 10 min, and a cut
 * at 24 h. One stream covers every market, so none of the caps binds.
 */
export const binanceStream = binanceStyleStream({
  venue: "binance",
  url: "wss://fstream.binance.com/market/ws",
  // The array comes every second: five silent seconds is a stalled socket.
  stallAfterMs: 5_000,
  maxLifetimeMs: 24 * 3_600_000,
});
