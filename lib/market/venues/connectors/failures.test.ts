import { describe, expect, it } from "vitest";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import type { ReplayRoute } from "../replay-fetch";
import { replayVenue, snapshotsBySymbol } from "@/tests/support/market/replay-venue";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { VENUE_IDS, type VenueId, type VenueSnapshotResult } from "../../model/types";
import { fetchVenueSnapshot } from "./fetch-venue-snapshot";
import { HTTP_VENUE_IDS } from "./venue-adapter";

/** Every venue's replies when nothing is wrong. */
const healthyRoutes = (venue: VenueId): ReplayRoute[] => VENUE_REPLAYS[venue]();

/** The venue's funding payload: the one request a refresh cannot do without. */
const FUNDING_ROUTE: Record<VenueId, Pick<ReplayRoute, "method" | "path" | "query" | "body">> = {
  binance: { path: "/fapi/v1/premiumIndex" },
  bybit: { path: "/v5/market/tickers", query: { category: "linear" } },
  okx: { path: "/api/v5/public/funding-rate", query: { instId: "ANY" } },
  bitget: { path: "/api/v2/mix/market/current-fund-rate", query: { productType: "USDT-FUTURES" } },
  gate: { path: "/api/v4/futures/usdt/contracts" },
  hyperliquid: { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs" } },
  bitmart: { path: "/contract/public/details" },
  bitmex: { path: "/api/v1/instrument/active" },
  coinex: { path: "/v2/futures/funding-rate" },
  phemex: { path: "/md/v2/ticker/24hr/all" },
  woo: { path: "/v3/public/fundingRate" },
  dydx: { path: "/v4/perpetualMarkets" },
  lighter: { path: "/api/v1/funding-rates" },
  paradex: { path: "/v1/markets/summary", query: { market: "ALL" } },
  extended: { path: "/api/v1/info/markets" },
  mexc: { path: "/api/v1/contract/funding_rate" },
  kucoinfutures: { path: "/api/v1/contracts/active" },
  bingx: { path: "/openApi/swap/v2/quote/premiumIndex" },
  htx: { path: "/linear-swap-api/v1/swap_batch_funding_rate" },
  aster: { path: "/fapi/v1/premiumIndex" },
  // One ticker per perpetual; failing them all is failing the funding payload.
  grvt: { method: "POST", path: "/full/v1/ticker" },
  backpack: { path: "/api/v1/markPrices" },
  deribit: { path: "/api/v2/public/get_book_summary_by_currency", query: { currency: "USDC" } },
  krakenfutures: { path: "/derivatives/api/v3/tickers" },
  // One ticker per perpetual, as on GRVT.
  derive: { method: "POST", path: "/public/get_ticker" },
  drift: { path: "/stats/markets" },
  // The market list, asked again raw each refresh, carries the rates.
  pacifica: { path: "/api/v1/info" },
  orderly: { path: "/v1/public/funding_rates" },
  btse: { path: "/public-api/market/v1/ticker/24hr" },
  weex: { path: "/capi/v3/market/premiumIndex" },
  variational: { path: "/metadata/stats" },
  hibachi: { path: "/market/inventory" },
  edgex: { path: "/api/v2/public/funding/getLatestFundingRate" },
  ethereal: { path: "/v1/funding/projected-rate" },
  bitfinex: { path: "/v2/status/deriv" },
  // One valuation per perpetual, as GRVT's tickers.
  cryptocom: { path: "/exchange/v1/public/get-valuations" },
  whitebit: { path: "/api/v4/public/futures" },
  hitbtc: { path: "/api/3/public/futures/info" },
  toobit: { path: "/api/v1/futures/fundingRate" },
  apex: { path: "/api/v3/data/all-ticker-info" },
  // A HIP-3 dex's metaAndAssetCtxs: its market list and funding payload at once.
  "hyperliquid:xyz": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "xyz" } },
  "hyperliquid:flx": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "flx" } },
  "hyperliquid:vntl": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "vntl" } },
  "hyperliquid:hyna": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "hyna" } },
  "hyperliquid:km": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "km" } },
  "hyperliquid:cash": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "cash" } },
  "hyperliquid:para": { method: "POST", path: "/info", body: { type: "metaAndAssetCtxs", dex: "para" } },
};

function expectStale(result: VenueSnapshotResult, error: RegExp): void {
  expect(result.status).toBe("stale");
  // Nothing half-written: a stale venue carries no market at all.
  expect(result).not.toHaveProperty("snapshots");
  if (result.status === "stale") expect(result.error).toMatch(error);
}

describe("a failing venue is stale, never a throw and never a partial list", () => {
  it.each(VENUE_IDS)("%s answering HTTP 500 to everything", async (venue) => {
    const { result } = await replayVenue(venue, [], { unmatched: { status: 500, body: "Internal Server Error" } });
    expectStale(result, /./);
  });

  it.each(VENUE_IDS)("%s answering HTTP 500 to the funding request only", async (venue) => {
    const failing: ReplayRoute = { ...FUNDING_ROUTE[venue], reply: { status: 500, body: "Internal Server Error" } };
    const { result } = await replayVenue(venue, [failing, ...healthyRoutes(venue)]);
    expectStale(result, /./);
  });

  it.each(VENUE_IDS)("%s answering an HTML page with status 200 to the funding request", async (venue) => {
    const garbage: ReplayRoute = { ...FUNDING_ROUTE[venue], reply: { body: "<html><body>Access denied</body></html>" } };
    const { result } = await replayVenue(venue, [garbage, ...healthyRoutes(venue)]);
    expectStale(result, /./);
  });

  it.each(VENUE_IDS)("%s answering well-formed JSON of the wrong shape to the funding request", async (venue) => {
    const wrongShape: ReplayRoute = { ...FUNDING_ROUTE[venue], reply: { body: { unexpected: true } } };
    const { result } = await replayVenue(venue, [wrongShape, ...healthyRoutes(venue)]);
    expectStale(result, /./);
  });

  it("binance answering a list of junk rows", async () => {
    const { result } = await replayVenue("binance", [
      { path: "/fapi/v1/premiumIndex", reply: { body: [1, "x", null, { symbol: 7 }] } },
      ...healthyRoutes("binance"),
    ]);
    expectStale(result, /no usable funding rate/);
  });

  it("binance answering garbage to exchangeInfo", async () => {
    const { result } = await replayVenue("binance", [
      { path: "/fapi/v1/exchangeInfo", reply: { body: "{\"symbols\": \"soon\"" } },
      ...healthyRoutes("binance"),
    ]);
    expectStale(result, /./);
  });

  it.each(["binance", "hyperliquid", "bitmex"] as const)("%s hanging past the deadline", async (venue) => {
    const hanging: ReplayRoute = { ...FUNDING_ROUTE[venue], reply: { hang: true } };
    const started = Date.now();
    const { result } = await replayVenue(venue, [hanging, ...healthyRoutes(venue)], { timeoutMs: 250 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expectStale(result, /timed out/);
  });

  it("bybit answering an error code inside a 200", async () => {
    const { result } = await replayVenue("bybit", [
      { path: "/v5/market/tickers", reply: { body: { retCode: 10006, retMsg: "Too many visits!", result: {}, retExtInfo: {}, time: 1 } } },
      ...healthyRoutes("bybit"),
    ]);
    expectStale(result, /./);
  });

  it.each(HTTP_VENUE_IDS)("%s (plain HTTP) says which request failed and how", async (venue) => {
    const failing: ReplayRoute = { ...FUNDING_ROUTE[venue], reply: { status: 503, body: "Service Unavailable" } };
    expectStale((await replayVenue(venue, [failing, ...healthyRoutes(venue)])).result, /answered HTTP 503: Service Unavailable/);
    const html: ReplayRoute = { ...FUNDING_ROUTE[venue], reply: { body: "<html>Access denied</html>" } };
    expectStale((await replayVenue(venue, [html, ...healthyRoutes(venue)])).result, /body that is not JSON: <html>Access denied/);
  });

  it("bitmart answering an error code inside a 200", async () => {
    const { result } = await replayVenue("bitmart", [
      { path: "/contract/public/details", reply: { body: { code: 30013, message: "Request too many requests", trace: "t", data: {} } } },
      ...healthyRoutes("bitmart"),
    ]);
    expectStale(result, /code 30013/);
  });

  it.each(["okx", "bitmex"] as const)("%s: a transport failure", async (venue) => {
    const { result } = await replayVenue(venue, [], { unmatched: { fail: new TypeError("fetch failed") } });
    expectStale(result, /NetworkError|fetch failed/);
  });

  it("an id that is not a supported venue", async () => {
    const result = await fetchVenueSnapshot("kraken" as VenueId);
    expectStale(result, /unsupported venue/);
  });
});

describe("a garbled row costs that row only", () => {
  it("drops a market whose rate or next settlement is not a number and keeps the rest", async () => {
    const rows = fixtureJson<Record<string, unknown>[]>("binance/premiumIndex_2025-06-17.json").map((row) => {
      if (row.symbol === "BTCUSDT") return { ...row, lastFundingRate: "n/a" };
      if (row.symbol === "ETHUSDT") return { ...row, nextFundingTime: "soon" };
      return row;
    });
    const { result } = await replayVenue("binance", [{ path: "/fapi/v1/premiumIndex", reply: { body: rows } }, ...healthyRoutes("binance")]);
    const bySymbol = snapshotsBySymbol(result);
    expect(bySymbol.has("BTC/USDT:USDT")).toBe(false);
    expect(bySymbol.has("ETH/USDT:USDT")).toBe(false);
    expect(bySymbol.get("SOL/USDT:USDT")?.fundingRate).toBe(0.0001);
    expect(result.status === "ok" && result.excluded.invalid).toBe(2);
  });
});
