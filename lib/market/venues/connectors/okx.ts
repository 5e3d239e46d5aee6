import type { okx } from "ccxt";
import { hoursBetweenSettlements } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { asRecord, indexRows, optional, rowsOf, type VenueAdapter } from "./venue-adapter";

export const okxAdapter: VenueAdapter<okx> = {
  id: "okx",
  create: (lib, config) =>
    new lib.okx({
      ...config,
      options: { fetchMarkets: { types: ["swap"] } },
      has: { fetchCurrencies: false },
    }),
  async collect(exchange, { fetchedAt }) {
    const warnings: string[] = [];
    const swaps = { instType: "SWAP" };
    const byInstId = (payload: unknown) => indexRows(rowsOf(payload), "instId");
    const [rates, marks, tickers, openInterest] = await Promise.all([
      exchange.fetchFundingRates(),
      optional(warnings, "mark-price", async () => byInstId(await exchange.publicGetPublicMarkPrice(swaps))),
      optional(warnings, "tickers", async () => byInstId(await exchange.publicGetMarketTickers(swaps))),
      optional(warnings, "open-interest", async () => byInstId(await exchange.publicGetPublicOpenInterest(swaps))),
    ]);
    const observations = Object.values(rates).map((rate): FundingObservation => {
      const row = asRecord(rate.info) ?? {};
      const id = String(row.instId ?? "");
      // `fundingTime` is the settlement the current rate is paid at, `nextFundingTime` the one
      // after; OKX states no interval, so their distance is the interval.
      const fundingTime = readNumber(row.fundingTime);
      const nextFundingTime = readNumber(row.nextFundingTime);
      const hours =
        fundingTime !== undefined && nextFundingTime !== undefined
          ? hoursBetweenSettlements(fundingTime, nextFundingTime)
          : null;
      const ticker = tickers?.get(id);
      return {
        symbol: rate.symbol ?? id,
        fundingRate: readNumber(row.fundingRate),
        // The forecast of the period after the current one; "" when OKX publishes none (method
        // `current_period`), which reads as absent.
        predictedFundingRate: readNumber(row.nextFundingRate),
        rateCap: readNumber(row.maxFundingRate),
        rateFloor: readNumber(row.minFundingRate),
        interval: hours === null ? null : { hours, source: "schedule" },
        nextFundingAt: fundingTime,
        markPrice: readNumber(marks?.get(id)?.markPx),
        indexPrice: undefined,
        openInterestUsd: readNumber(openInterest?.get(id)?.oiUsd),
        // For swaps `volCcy24h` counts the base asset, so dollars need the last price.
        volume24hUsd: product(readNumber(ticker?.volCcy24h), readNumber(ticker?.last)),
        observedAt: readNumber(row.ts) ?? fetchedAt,
      };
    });
    return { observations, warnings };
  },
};
