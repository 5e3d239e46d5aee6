/*
 * Backpack's healthy answers (api.backpack.exchange). Sources: lib/market/fixtures/backpack/SOURCES.md.
 *
 * - REAL: the `markPrices` rows of eight hourly USDC perpetuals (0G … ARB, negative rates among
 *   them), pasted from a live answer whose settlements fall at 2025-10-03 11:00Z (e-time/taolifunding
 *   docs/backpack-funding-api.md @ 4961d59d59757394a16f699a1e2a94302ec0131f).
 * - REAL rows re-typed: the ETH_USDC_PERP (8h, ±100 bps) and ADA_USDC_PERP (1h, ±150 bps) `markets`
 *   rows of ccxt/ccxt ts/src/test/static/markets/backpack.json @ 240e6d285f606c441e6341f134ea86322c957c38,
 *   whose recorder wrote `fundingInterval` as a string; it is served as the JSON integer Backpack
 *   documents (the connector reads either).
 * - SYNTHETIC: the BTC_USDC_PERP (8h, cloned from ETH), AAVE_USDC_PERP and 0G_USDC_PERP (1h,
 *   cloned from ADA) markets rows; BTC's and ETH's `markPrices` rows (8h, so settling at 16:00Z);
 *   all `openInterest` and `tickers` rows. Numbers made up. The five other recorded symbols
 *   (2Z, AERO, APEX, APT, ARB) have no markets row here and count as unlisted.
 */
import type { ReplayRoute } from "../../replay-fetch";
import { fixtureJson } from "../read-fixture";

type Row = Record<string, unknown>;

/**
 * The moment the sample dates Backpack's recording at: it has no time of its own, but every row's
 * next hourly settlement is 2025-10-03 11:00Z, so it was taken in the hour before; 10:30Z is that
 * hour's middle, not a recorded minute.
 */
export const BACKPACK_TIME = Date.UTC(2025, 9, 3, 10, 30);
/** The next 8h settlement after it: 16:00Z. */
const NEXT_8H = Date.UTC(2025, 9, 3, 16);

function markets(): Row[] {
  const recorded = fixtureJson<Row[]>("backpack/markets_PERP_entries_ccxt-markets.json").map((row) => ({
    ...row,
    fundingInterval: Number(row.fundingInterval),
  }));
  const [eth, ada] = recorded;
  if (!eth || !ada) throw new Error("backpack markets fixture lacks ETH or ADA");
  const clone = (template: Row, baseSymbol: string, overrides: Row = {}): Row => ({
    ...template,
    baseSymbol,
    symbol: `${baseSymbol}_USDC_PERP`,
    ...overrides,
  });
  return [
    clone(eth, "BTC", { createdAt: "2025-01-21T06:34:54.691858", openInterestLimit: "2000" }),
    eth,
    ada,
    clone(ada, "AAVE"),
    clone(ada, "0G", { createdAt: "2025-09-23T12:00:00.000000" }),
  ];
}

const markPrice = (symbol: string, fundingRate: string, markPrice: string, indexPrice: string): Row => ({
  fundingRate,
  indexPrice,
  markPrice,
  nextFundingTimestamp: NEXT_8H,
  symbol,
});

export function backpackRoutes(): ReplayRoute[] {
  const markPrices = [
    markPrice("BTC_USDC_PERP", "0.0000521", "120412.1", "120398.40551"),
    markPrice("ETH_USDC_PERP", "-0.0000183", "4481.07", "4482.33"),
    ...fixtureJson<Row[]>("backpack/markPrices_2025-10-03_excerpt.json"),
  ];
  const openInterest = [
    { symbol: "BTC_USDC_PERP", openInterest: "118.41205", timestamp: BACKPACK_TIME },
    { symbol: "ETH_USDC_PERP", openInterest: "2114.3551", timestamp: BACKPACK_TIME },
    { symbol: "ADA_USDC_PERP", openInterest: "1850211", timestamp: BACKPACK_TIME },
  ];
  const ticker = (symbol: string, lastPrice: string, quoteVolume: string): Row => ({
    symbol,
    firstPrice: lastPrice,
    lastPrice,
    priceChange: "0",
    priceChangePercent: "0",
    high: lastPrice,
    low: lastPrice,
    volume: "0",
    quoteVolume,
    trades: "1",
  });
  const tickers = [
    ticker("BTC_USDC", "120380.5", "41000000.1"),
    ticker("BTC_USDC_PERP", "120410.3", "210500000.75"),
    ticker("ETH_USDC_PERP", "4481.2", "98000000.5"),
    ticker("ADA_USDC_PERP", "0.8581", "4100000.2"),
  ];
  return [
    { path: "/api/v1/markets", query: { marketType: "PERP" }, reply: { body: markets() } },
    { path: "/api/v1/markPrices", reply: { body: markPrices } },
    { path: "/api/v1/openInterest", reply: { body: openInterest } },
    { path: "/api/v1/tickers", reply: { body: tickers } },
  ];
}
