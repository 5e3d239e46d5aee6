/*
 * KuCoin Futures (https://api-futures.kucoin.com, bounds from https://api.kucoin.com): the healthy
 * answers of one refresh.
 *
 * - REAL: `GET /api/v1/contracts/active` rows, fixtures/kucoinfutures/contracts_active_entries_2023-10_ccxt-markets.json
 *   (XBTUSDTM, the inverse XBTUSDM, ETHUSDTM; each market's `info` in ccxt/ccxt
 *   ts/src/test/static/markets/kucoinfutures.json @ 23dc7b5a4544e4b2fd19ab33b3576a1296f345e5; late
 *   October 2023 by its prices, no time inside). They carry the funding fields in the 2023 form:
 *   `fundingFeeRate`, `predictedFundingFeeRate`, `fundingRateGranularity` (ms) and
 *   `nextFundingRateTime`, a countdown in ms.
 * - SYNTHETIC: the `{"code":"200000","data":[…]}` envelope around those rows (ccxt's dump keeps the
 *   rows only), and one SOLUSDTM row built from the real ETHUSDTM row in today's field set: the
 *   absolute `nextFundingRateDateTime` beside the countdown, a 4h granularity, a negative rate and
 *   `predictedFundingFeeRate: null` (what current rows send). Its numbers are made up.
 * - DOCUMENTED EXAMPLE: `GET /api/ua/v2/market/funding-rate` (every contract's bounds), the
 *   XBTUSDTM row ccxt's kucoin.js quotes from KuCoin's documentation (fetchFundingRates), unchanged.
 *   No recording of it exists.
 *
 * KuCoin is not in the offline sample: its recorded funding payload states no time (only a
 * countdown), so the moment it is of cannot be told to the day.
 */
import { fixtureJson } from "../read-fixture";
import type { ReplayRoute } from "../../replay-fetch";

type Row = Record<string, unknown>;

/**
 * The clock the connector test replays at: chosen so that the real rows' countdown
 * (`nextFundingRateTime` 11057610 ms on XBTUSDTM) ends at 16:00Z, a settlement of the 8h schedule.
 * An assumed moment, not the recording's (which is unknown beyond "late October 2023").
 */
export const KUCOINFUTURES_REPLAY_CLOCK = Date.UTC(2023, 9, 31, 16) - 11_057_610;

/** The SYNTHETIC SOLUSDTM row's next settlement: 16:00Z on the replay clock's day, on its 4h schedule. */
export const KUCOINFUTURES_SOL_NEXT_FUNDING = Date.UTC(2023, 9, 31, 16);

export function kucoinfuturesContractRows(): Row[] {
  const real = fixtureJson<Row[]>("kucoinfutures/contracts_active_entries_2023-10_ccxt-markets.json");
  const eth = real.find((row) => row.symbol === "ETHUSDTM");
  if (!eth) throw new Error("kucoinfutures fixture has no ETHUSDTM row");
  const sol: Row = {
    ...eth,
    symbol: "SOLUSDTM",
    baseCurrency: "SOL",
    firstOpenDate: 1635840000000,
    multiplier: 0.1,
    tickSize: 0.001,
    fundingBaseSymbol: ".SOLINT4H",
    fundingRateSymbol: ".SOLUSDTMFPI4H",
    indexSymbol: ".KSOLUSDT",
    fundingFeeRate: -0.000213,
    predictedFundingFeeRate: null,
    fundingRateGranularity: 14400000,
    // Current rows send both the countdown and the time; ccxt reads a row without the countdown
    // as a dated future.
    nextFundingRateTime: KUCOINFUTURES_SOL_NEXT_FUNDING - KUCOINFUTURES_REPLAY_CLOCK,
    nextFundingRateDateTime: KUCOINFUTURES_SOL_NEXT_FUNDING,
    openInterest: "412870",
    turnoverOf24h: 61250340.25,
    volumeOf24h: 1712300.5,
    markPrice: 35.812,
    indexPrice: 35.797,
    lastTradePrice: 35.81,
    premiumsSymbol1M: ".SOLUSDTMPI",
    premiumsSymbol8H: ".SOLUSDTMPI8H",
    fundingBaseSymbol1M: ".SOLINT",
    lowPrice: 33.9,
    highPrice: 36.42,
  };
  return [...real, sol];
}

/** DOCUMENTED EXAMPLE of the unified-account funding list, as ccxt's kucoin.js quotes it. */
export const KUCOIN_FUNDING_BOUNDS_EXAMPLE = {
  code: "200000",
  data: [
    {
      symbol: "XBTUSDTM",
      nextFundingRate: "-0.000004",
      fundingTime: 1789315200000,
      fundingRateCap: "0.003",
      fundingRateFloor: "-0.003",
      currentGranularity: 28800000,
      newGranularity: 28800000,
      newGranularityStartTime: 1750147200000,
    },
  ],
};

export function kucoinfuturesRoutes(): ReplayRoute[] {
  return [
    { path: "/api/v1/contracts/active", reply: { body: { code: "200000", data: kucoinfuturesContractRows() } } },
    { path: "/api/ua/v2/market/funding-rate", reply: { body: KUCOIN_FUNDING_BOUNDS_EXAMPLE } },
  ];
}
