/*
 * Aster's healthy answers (USDⓈ-M-style /fapi/v1 API). Sources: lib/market/fixtures/aster/SOURCES.md.
 *
 * - REAL: `premiumIndex` rows GNSUSD, EGL1USD (rate "0": USD-quoted symbols) and INJUSDT, and their
 *   `fundingInfo` rows (caps as JSON numbers or null), pasted from a live 2025-09-25 01:38Z answer
 *   (e-time/taolifunding docs/aster-api.md @ 4961d59d59757394a16f699a1e2a94302ec0131f); the
 *   BTCUSDT `exchangeInfo` row (ccxt/ccxt ts/src/test/static/markets/aster.json @
 *   0117dcb9f9d7ef6fdd11d7dd649c8ca200f061d7).
 * - SYNTHETIC (no recording has them): the BTCUSDT, ETHUSDT and ASTERUSDT premium-index and
 *   funding-info rows, at the recording's `time` (BTC's 0.3 % cap after a note that Aster's
 *   BTCUSDT is capped at 0.003, ASTERUSDT 4h; prices and rates made up); every other
 *   `exchangeInfo` row, cloned from the real BTCUSDT row (GNSUSD and EGL1USD quoted in USD, as
 *   their names say; their real listing is not recorded); the exchangeInfo envelope; all of
 *   `ticker/24hr` (made-up volumes).
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

/** `time` of every row of the REAL premiumIndex excerpt: 2025-09-25 01:38:55Z. */
export const ASTER_TIME = 1758764335000;
/** `time` of the REAL fundingInfo excerpt's rows. */
const FUNDING_INFO_TIME = 1758764399000;
/** The 8h settlement the REAL rows name: 2025-09-25 08:00Z. */
const NEXT_8H = 1758787200000;
/** The next 4h settlement after the recording: 04:00Z. */
const NEXT_4H = 1758772800000;

function exchangeInfo(): Row {
  const [btc] = fixtureJson<Row[]>("aster/exchangeInfo_BTCUSDT_perp_entry_ccxt-markets.json");
  if (!btc) throw new Error("aster exchangeInfo fixture is empty");
  const clone = (baseAsset: string, quoteAsset: string, overrides: Row = {}): Row => ({
    ...btc,
    symbol: `${baseAsset}${quoteAsset}`,
    pair: `${baseAsset}${quoteAsset}`,
    baseAsset,
    quoteAsset,
    marginAsset: quoteAsset,
    ...overrides,
  });
  return {
    timezone: "UTC",
    serverTime: ASTER_TIME,
    futuresType: "U_MARGINED",
    rateLimits: [],
    exchangeFilters: [],
    assets: [],
    symbols: [
      btc,
      clone("ETH", "USDT", { pricePrecision: 2, onboardDate: 1627628400000 }),
      clone("INJ", "USDT", { pricePrecision: 3 }),
      clone("ASTER", "USDT", { pricePrecision: 5, onboardDate: 1758178800000 }),
      clone("GNS", "USD", { pricePrecision: 5 }),
      clone("EGL1", "USD", { pricePrecision: 5 }),
    ],
  };
}

function premiumIndexRow(symbol: string, markPrice: string, indexPrice: string, rate: string, nextFundingTime: number): Row {
  return {
    symbol,
    markPrice,
    indexPrice,
    estimatedSettlePrice: indexPrice,
    lastFundingRate: rate,
    interestRate: "0.00010000",
    nextFundingTime,
    time: ASTER_TIME,
  };
}

function fundingInfoRow(symbol: string, fundingIntervalHours: number, cap: number): Row {
  return {
    symbol,
    interestRate: "0.00010000",
    time: FUNDING_INFO_TIME,
    fundingIntervalHours,
    fundingFeeCap: cap,
    fundingFeeFloor: -cap,
  };
}

export function asterRoutes(): ReplayRoute[] {
  const premiumIndex = [
    premiumIndexRow("BTCUSDT", "112987.40000000", "113001.52173913", "0.00007513", NEXT_8H),
    premiumIndexRow("ETHUSDT", "4021.35000000", "4022.11130435", "-0.00002136", NEXT_8H),
    premiumIndexRow("ASTERUSDT", "1.93250000", "1.93011457", "0.00032119", NEXT_4H),
    ...fixtureJson<Row[]>("aster/premiumIndex_2025-09-25_excerpt.json"),
  ];
  const fundingInfo = [
    fundingInfoRow("BTCUSDT", 8, 0.003),
    fundingInfoRow("ETHUSDT", 8, 0.02),
    fundingInfoRow("ASTERUSDT", 4, 0.02),
    ...fixtureJson<Row[]>("aster/fundingInfo_2025-09-25_excerpt.json"),
  ];
  const ticker = (symbol: string, lastPrice: string, quoteVolume: string): Row => ({
    symbol,
    priceChange: "0",
    priceChangePercent: "0",
    weightedAvgPrice: lastPrice,
    lastPrice,
    lastQty: "0",
    openPrice: lastPrice,
    highPrice: lastPrice,
    lowPrice: lastPrice,
    volume: "0",
    quoteVolume,
    openTime: ASTER_TIME - 86_400_000,
    closeTime: ASTER_TIME,
    firstId: 1,
    lastId: 2,
    count: 2,
  });
  return [
    { path: "/fapi/v1/exchangeInfo", reply: { body: exchangeInfo() } },
    { path: "/fapi/v1/premiumIndex", reply: { body: premiumIndex } },
    { path: "/fapi/v1/fundingInfo", reply: { body: fundingInfo } },
    {
      path: "/fapi/v1/ticker/24hr",
      reply: {
        body: [
          ticker("BTCUSDT", "112990.1", "1835000000.50"),
          ticker("ETHUSDT", "4021.40", "912000000.25"),
          ticker("INJUSDT", "12.244", "8100000.00"),
        ],
      },
    },
  ];
}
