/*
 * Extended replay. REAL: the BTC-USD market of `GET /api/v1/info/markets` (mainnet, 2026-04-29;
 * ccxt `ts/src/test/static/response/extended.json` @ 01db251b975e3ff40db4948aa83e590f415e26d3,
 * lib/market/fixtures/extended/SOURCES.md), served with every field as recorded. SYNTHETIC: an
 * ETH-USD market cloned from it with made-up statistics, because no recording of Extended's ETH
 * exists and cross-venue pairs need ETH. The market list is also the funding payload, so a refresh
 * makes this one request (and a client loading its markets one more).
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

/** `marketStats.nextFundingRate` of the real BTC row: despite its name, the next settlement's time (07:00Z). */
export const EXTENDED_NEXT_FUNDING_AT = 1777446000000;

/**
 * When the recording is of. It states no time, but its next hourly settlement (07:00Z) dates it to
 * the hour before; the sample takes that hour's middle, 2026-04-29T06:30Z.
 */
export const EXTENDED_RECORDED_AT = Date.UTC(2026, 3, 29, 6, 30);

export function extendedMarkets(): Row {
  const real = fixtureJson<{ data: Row[] } & Row>("extended/info_markets_BTC-USD_2026-04-29.json");
  const btc = real.data[0];
  if (!btc) throw new Error("Extended markets fixture has no market");
  const btcStats = btc.marketStats as Row;
  const eth: Row = {
    ...btc,
    name: "ETH-USD",
    uiName: "ETH-USD",
    assetName: "ETH",
    assetPrecision: 4,
    description: "Ethereum",
    // Made-up statistics; the next settlement is the real row's.
    marketStats: {
      ...btcStats,
      dailyVolume: "98450121.334100",
      dailyVolumeBase: "42611.2041",
      dailyPriceChange: "-21.4",
      dailyPriceChangePercentage: "-0.0092",
      dailyLow: "2290.1",
      dailyHigh: "2361.8",
      lastPrice: "2310.4",
      askPrice: "2310.5",
      bidPrice: "2310.3",
      markPrice: "2310.27182",
      indexPrice: "2311.05641",
      fundingRate: "-0.000004",
      openInterest: "61284220.501200",
      openInterestBase: "26526.9180",
    },
    tradingConfig: { ...(btc.tradingConfig as Row), minOrderSize: "0.01", minOrderSizeChange: "0.001", minPriceChange: "0.1" },
  };
  return { ...real, data: [...real.data, eth] };
}

export function extendedRoutes(): ReplayRoute[] {
  return [{ path: "/api/v1/info/markets", reply: { body: extendedMarkets() } }];
}
