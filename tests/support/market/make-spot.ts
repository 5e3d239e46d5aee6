import type { SpotLeg } from "@/lib/market/carry/spot-leg";
import { makeSnapshot } from "./make-snapshot";

/** When `makeSnapshot`'s perpetuals are observed: spot legs made here are observed with them. */
const observedIso = new Date(makeSnapshot({ exchange: "binance" }).observedAt).toISOString();

/** A BTC/USDT spot market at 100 with a 0.1 % taker fee and no margin, observed with `makeSnapshot`'s perps; tests override what they are about. */
export function makeSpot(overrides: Partial<SpotLeg> & Pick<SpotLeg, "exchange">): SpotLeg {
  return {
    market: "BTC/USDT",
    base: "BTC",
    quote: "USDT",
    price: 100,
    volume24hUsd: 1_000_000,
    takerFee: 0.001,
    borrow: null,
    observedAt: observedIso,
    ...overrides,
  };
}

/** Borrowing `asset` at 0.01 % a day (3.65 % a year), 50 units lendable, observed with `makeSnapshot`'s perps. */
export function dailyBorrow(asset = "BTC") {
  return { asset, rate: 0.0001, period: "day", borrowable: 50, source: "test", observedAt: observedIso } as const;
}
