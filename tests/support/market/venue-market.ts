import type { VenueMarket } from "@/lib/market/venues/connectors/build-snapshot";

/** A listed USDT-settled linear perpetual of `base` (`BTC/USDT:USDT`, id `BTCUSDT`), active, taker 0.05 %, with `over` applied. */
export function linearPerp(base: string, over: Partial<VenueMarket> = {}): VenueMarket {
  return {
    id: `${base}USDT`,
    symbol: `${base}/USDT:USDT`,
    base,
    quote: "USDT",
    settle: "USDT",
    swap: true,
    linear: true,
    expiry: undefined,
    active: true,
    taker: 0.0005,
    ...over,
  };
}
