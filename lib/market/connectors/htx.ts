import type { htx } from "ccxt";
import { hoursBetweenSettlements, intervalsMatchingSchedule, MIDNIGHT_GRID, parseIntervalHours } from "../funding-interval";
import type { IntervalSource } from "../types";
import { readNumber, type FundingObservation } from "./build-snapshot";
import { asRecord, indexRows, optional, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * HTX's batch funding rows state the next settlement (`funding_time`) but no interval, and their
 * `next_funding_time` is documented as deprecated (null). The interval is read, in this order, from
 * the contract list's `settlement_period` (hours, per contract); from `next_funding_time −
 * funding_time` where a row still carries both; from `funding_time` against the payload's `ts`
 * when exactly one of 1/2/4/8h fits that schedule. Otherwise it is unknown.
 */
export function htxFundingInterval(
  fundingRow: Record<string, unknown>,
  contract: Record<string, unknown> | undefined,
  payloadTime: number | undefined,
): { hours: number; source: IntervalSource } | null {
  const stated = parseIntervalHours(contract?.settlement_period);
  if (stated !== null) return { hours: stated, source: "venue" };
  const fundingTime = readNumber(fundingRow.funding_time);
  if (fundingTime === undefined || !Number.isFinite(fundingTime)) return null;
  const nextFundingTime = readNumber(fundingRow.next_funding_time);
  if (nextFundingTime !== undefined) {
    const hours = hoursBetweenSettlements(fundingTime, nextFundingTime);
    if (hours !== null) return { hours, source: "schedule" };
  }
  if (payloadTime === undefined || !Number.isFinite(payloadTime)) return null;
  const candidates = intervalsMatchingSchedule(fundingTime, payloadTime, MIDNIGHT_GRID);
  return candidates.length === 1 && candidates[0] !== undefined ? { hours: candidates[0], source: "schedule" } : null;
}

const CONTRACT_PUBLIC = ["contract", "public"];

export const htxAdapter: VenueAdapter<htx> = {
  id: "htx",
  create: (lib, config) =>
    new lib.htx({
      ...config,
      // USDT-margined contracts only (GET /linear-swap-api/v1/swap_contract_info): no spot symbols,
      // no coin-margined swaps or futures.
      options: { fetchMarkets: { types: { spot: false, linear: true, inverse: false } } },
      has: { fetchCurrencies: false },
    }),
  async collect(exchange, { marketsById, fetchedAt }) {
    const warnings: string[] = [];
    // GET /linear-swap-api/v1/swap_batch_funding_rate without a contract answers every USDT-margined
    // swap (ccxt's API table has only the coin-margined batch, hence the generic `request`). Open
    // interest and 24h turnover come from the all-contract open-interest list. HTX publishes no
    // all-contract mark price (only per contract), so the mark stays unknown rather than costing a
    // request per contract; its funding bounds are likewise stated only ten contracts at a time
    // (/v5/market/funding_rate), so they are not read.
    const [fundingPayload, openInterest] = await Promise.all([
      exchange.request("linear-swap-api/v1/swap_batch_funding_rate", CONTRACT_PUBLIC, "GET", {}),
      optional(warnings, "open-interest", async () =>
        indexRows(
          rowsOf(await exchange.request("linear-swap-api/v1/swap_open_interest", CONTRACT_PUBLIC, "GET", { business_type: "swap" })),
          "contract_code",
        ),
      ),
    ]);
    const rows = rowsOf(fundingPayload);
    const payloadTime = readNumber(asRecord(fundingPayload)?.ts);
    const observations = rows.map((row): FundingObservation => {
      const id = String(row.contract_code ?? "");
      const market = marketsById.get(id);
      const interest = openInterest?.get(id);
      return {
        symbol: market?.symbol ?? id,
        // The live rate of the current period, charged at `funding_time`.
        fundingRate: readNumber(row.funding_rate),
        // Documented as deprecated and sent as null; read in case HTX fills it again.
        predictedFundingRate: readNumber(row.estimated_rate),
        interval: htxFundingInterval(row, asRecord(market?.info), payloadTime),
        nextFundingAt: readNumber(row.funding_time),
        markPrice: undefined,
        indexPrice: undefined,
        // `value` is the open interest in USDT, `trade_turnover` the 24h turnover in USDT.
        openInterestUsd: readNumber(interest?.value),
        volume24hUsd: readNumber(interest?.trade_turnover),
        observedAt: payloadTime ?? fetchedAt,
      };
    });
    return { observations, warnings };
  },
};
