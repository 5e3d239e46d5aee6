import { product, readNumber, runningEstimate, type FundingObservation } from "./build-snapshot";
import { nextWholeHour } from "./dydx";
import { httpMarket } from "./http-market";
import type { HttpClient } from "./http-client";
import { asRecord, errorMessage, indexRows, optional, rowsOf, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/**
 * Ethereal charges funding every hour: its rates are named per hour (`fundingRate1h`,
 * `fundingRateProjected1h`), its funding history rows are hourly charges (the spec's example falls
 * on the hour) and its bounds are annual rates. No field states the interval, so its source is `protocol`.
 */
const PROTOCOL_INTERVAL_HOURS = 1;
const HOURS_PER_YEAR = 8_760;

/** The most product ids `funding/projected-rate` and `product/market-price` take at once (the spec's `maxItems`). */
export const ETHEREAL_BATCH = 50;

/** Pages of the product list followed at most, against a cursor that never ends. */
const MAX_PAGES = 20;

/**
 * An annual rate (`fundingMaxApr`, "Maximum funding APR expressed as a decimal, e.g. 2.0 = 200%")
 * as a bound on the hourly rate, rounded to 15 significant digits.
 */
export function etherealHourlyBound(apr: number | undefined): number | undefined {
  if (apr === undefined || !Number.isFinite(apr)) return apr;
  return Number((apr / HOURS_PER_YEAR).toPrecision(15));
}

function toMarket(row: Record<string, unknown>): HttpMarket {
  const id = typeof row.ticker === "string" ? row.ticker : String(row.id ?? "");
  // The quote token is the collateral perpetuals settle in: USDe (the spec's example, Ethena's dollar).
  const quote = String(row.quoteTokenName ?? "").toUpperCase();
  const taker = readNumber(row.takerFee);
  // Engine 0 is the perpetual engine (the spec's ETH-USD example); any other is not a perpetual.
  return httpMarket(id, { base: String(row.baseTokenName ?? "").toUpperCase(), quote, settle: quote }, row.engineType === 0, {
    linear: true,
    expiry: undefined,
    // The spec's `ProductStatus` values were not in the extract read here, so no status is judged:
    // a product without a projected rate keeps no rate.
    active: undefined,
    // Each product states its own maker and taker fee; Ethereal publishes no schedule found here.
    taker: taker !== undefined && Number.isFinite(taker) && taker >= 0 ? taker : undefined,
    info: row,
  });
}

async function listProducts(http: HttpClient): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = asRecord(await http.getJson("/v1/product", cursor === undefined ? undefined : { cursor }));
    rows.push(...rowsOf(answer, "data"));
    cursor = answer?.hasNext === true && typeof answer.nextCursor === "string" ? answer.nextCursor : undefined;
    if (cursor === undefined) return rows;
  }
  return rows;
}

/** A GET with a repeated `productIds` query parameter, the array form the spec declares. */
function byProductIds(http: HttpClient, path: string, ids: readonly string[]): Promise<unknown> {
  return http.getJson(`${path}?${ids.map((id) => `productIds=${encodeURIComponent(id)}`).join("&")}`);
}

/** One product's observation from its row, its projected rate and its prices. */
export function etherealObservation(
  market: HttpMarket,
  projected: Record<string, unknown> | undefined,
  prices: Record<string, unknown> | undefined,
  fetchedAt: number,
): FundingObservation {
  const row = market.info;
  const cap = etherealHourlyBound(readNumber(row.fundingMaxApr));
  const oracle = readNumber(prices?.oraclePrice);
  return {
    symbol: market.symbol,
    // `fundingRateProjected1h`: the rate the coming hourly charge is heading for, so both the current
    // rate and the forecast. The product's `fundingRate1h` is the last computed (charged) one.
    ...runningEstimate(readNumber(projected?.fundingRateProjected1h)),
    // The maximum funding APR both ways, per hour.
    rateCap: cap,
    rateFloor: cap === undefined ? undefined : -cap,
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: nextWholeHour(fetchedAt),
    // The answers carry no mark price: best bid and ask and the oracle's.
    markPrice: undefined,
    indexPrice: oracle,
    // `openInterest` ("OI of both sides") and the 24h `volume24h` count the base token: valued at the oracle.
    openInterestUsd: product(readNumber(row.openInterest), oracle),
    volume24hUsd: product(readNumber(row.volume24h), oracle),
    observedAt: fetchedAt,
  };
}

/**
 * Ethereal (Ethena's perpetuals exchange) over plain HTTP (no ccxt class): `GET /v1/product` lists
 * the products with their bounds, fees, open interest and volume; `GET /v1/funding/projected-rate`
 * answers the projected hourly rate of up to 50 products, and `GET /v1/product/market-price` their
 * prices. A failed projected-rate batch costs its products their rates (a warning; all failing makes
 * the venue stale); failed prices cost only the fields they add.
 */
export const etherealAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "ethereal",
  baseUrl: "https://api.ethereal.trade",
  // 20,000 points a minute per IP (docs.ethereal.trade, System Limits); a public GET's point cost
  // was not read, so 5 requests a second, 300 a minute, leaves it 66 points each.
  requestSpacingMs: 200,
  keepsMarketList: true,
  async loadMarkets(http) {
    return (await listProducts(http)).map(toMarket);
  },
  async collect(http, { marketsById, fetchedAt }) {
    const perpetuals = [...marketsById.values()].filter((market) => market.swap === true && typeof market.info.id === "string");
    const batches: HttpMarket[][] = [];
    for (let i = 0; i < perpetuals.length; i += ETHEREAL_BATCH) batches.push(perpetuals.slice(i, i + ETHEREAL_BATCH));
    const warnings: string[] = [];
    const failures: unknown[] = [];
    const observations: FundingObservation[] = [];
    for (const batch of batches) {
      const ids = batch.map((market) => String(market.info.id));
      const [projected, prices] = await Promise.all([
        (async () => {
          try {
            return indexRows(rowsOf(await byProductIds(http, "/v1/funding/projected-rate", ids)), "productId");
          } catch (error) {
            failures.push(error);
            warnings.push(`projected-rate: a batch of ${ids.length} products failed: ${errorMessage(error)}`);
            return undefined;
          }
        })(),
        optional(warnings, "market-price", async () => indexRows(rowsOf(await byProductIds(http, "/v1/product/market-price", ids), "data"), "productId")),
      ]);
      if (!projected) continue;
      for (const market of batch) {
        const id = String(market.info.id);
        const rate = projected.get(id);
        // A product the answer leaves out has no rate row (counted as such), not a null rate.
        if (rate) observations.push(etherealObservation(market, rate, prices?.get(id), fetchedAt));
      }
    }
    if (observations.length === 0 && failures.length > 0) throw failures[0];
    return { observations, warnings };
  },
};
