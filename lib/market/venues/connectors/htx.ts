import type { htx } from "ccxt";
import { intervalsMatchingSchedule, MIDNIGHT_GRID } from "../../model/funding-interval";
import { readNumber, type FundingObservation, type ObservedInterval } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { intervalBetweenSettlements } from "./read-interval";
import { asRecord, indexRows, optional, optionalIndex, rowsOf, type VenueAdapter, type CollectContext, type IndexedRows } from "./venue-adapter";

/**
 * The interval, from HTX's own funding-rate answers, which state settlement times and no length:
 * 1. `next_funding_time − funding_time` of the contract's `GET /v5/market/funding_rate` row (the
 *    current funding-rate endpoint, which still sends both);
 * 2. the same of its batch funding row, where HTX still fills the deprecated `next_funding_time`;
 * 3. `funding_time` against the batch answer's `ts`, when exactly one of 1/2/4/8h fits HTX's grid
 *    (UTC multiples of the interval).
 * Otherwise it is unknown. HTX documents no per-contract interval field in its contract list.
 */
export function htxFundingInterval(
  fundingRow: Record<string, unknown>,
  currentRow: Record<string, unknown> | undefined,
  payloadTime: number | undefined,
): ObservedInterval | null {
  for (const row of [currentRow, fundingRow]) {
    const interval = intervalBetweenSettlements(row?.funding_time, row?.next_funding_time);
    if (interval !== null) return interval;
  }
  const fundingTime = readNumber(fundingRow.funding_time);
  if (fundingTime === undefined || !Number.isFinite(fundingTime)) return null;
  if (payloadTime === undefined || !Number.isFinite(payloadTime)) return null;
  const candidates = intervalsMatchingSchedule(fundingTime, payloadTime, MIDNIGHT_GRID);
  return candidates.length === 1 && candidates[0] !== undefined ? { hours: candidates[0], source: "schedule" } : null;
}

/** `GET /v5/market/funding_rate` takes at most this many contract codes, comma-separated. */
export const HTX_CURRENT_FUNDING_BATCH = 10;

const CONTRACT_PUBLIC = ["contract", "public"];

export const htxAdapter: VenueAdapter<htx> = {
  id: "htx",
  create: (lib, config) =>
    // USDT-margined contracts only (GET /linear-swap-api/v1/swap_contract_info): no spot symbols,
    // no coin-margined swaps or futures.
    new lib.htx(clientConfig(config, { fetchMarkets: { types: { spot: false, linear: true, inverse: false } } })),
  async collect(exchange, context) {
    const warnings: string[] = [];
    // GET /linear-swap-api/v1/swap_batch_funding_rate without a contract answers every USDT-margined
    // swap (ccxt's API table has only the coin-margined batch, hence the generic `request`). Open
    // interest and 24h turnover come from the all-contract open-interest list. HTX publishes no
    // all-contract mark price (only per contract), so the mark stays unknown rather than costing a
    // request per contract.
    const [fundingPayload, openInterest] = await Promise.all([
      exchange.request("linear-swap-api/v1/swap_batch_funding_rate", CONTRACT_PUBLIC, "GET", {}),
      optionalIndex(warnings, "open-interest", "contract_code", () =>
        exchange.request("linear-swap-api/v1/swap_open_interest", CONTRACT_PUBLIC, "GET", { business_type: "swap" }),
      ),
    ]);
    const rows = rowsOf(fundingPayload);
    const payloadTime = readNumber(asRecord(fundingPayload)?.ts);
    // The batch rows' `next_funding_time` is deprecated (null), so the interval and the bounds come
    // from the current funding-rate endpoint, which states both settlement times and
    // `min_funding_rate`/`max_funding_rate`, ten contracts a request (80 requests/s allowed).
    const codes = rows.map((row) => String(row.contract_code ?? "")).filter((code) => context.marketsById.has(code));
    const current = new Map<string, Record<string, unknown>>();
    await Promise.all(
      chunks(codes, HTX_CURRENT_FUNDING_BATCH).map((batch) =>
        optional(warnings, `current funding ${batch[0]}…`, async () => {
          const payload = await exchange.contractPublicGetV5MarketFundingRate({ contract_code: batch.join(",") });
          for (const [code, row] of indexRows(rowsOf(payload), "contract_code")) current.set(code, row);
        }),
      ),
    );
    const observations: FundingObservation[] = [];
    for (const row of rows) observations.push(htxObservation(row, context, openInterest, current, payloadTime));
    return { observations, warnings };
  },
};

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One row of the batch funding rates, with its bounds and stated interval from the current funding and its open interest from the other list. */
function htxObservation(row: Record<string, unknown>, { marketsById, fetchedAt }: CollectContext, openInterest: IndexedRows | undefined, current: IndexedRows, payloadTime: number | undefined): FundingObservation {
  const id = String(row.contract_code ?? "");
  const market = marketsById.get(id);
  const interest = openInterest?.get(id);
  const stated = current.get(id);
  return {
    symbol: market?.symbol ?? id,
    // The live rate of the current period, charged at `funding_time`.
    fundingRate: readNumber(row.funding_rate),
    // Documented as deprecated and sent as null; read in case HTX fills it again.
    predictedFundingRate: readNumber(row.estimated_rate),
    rateCap: readNumber(stated?.max_funding_rate),
    rateFloor: readNumber(stated?.min_funding_rate),
    interval: htxFundingInterval(row, stated, payloadTime),
    nextFundingAt: readNumber(row.funding_time),
    markPrice: undefined,
    indexPrice: undefined,
    // `value` is the open interest in USDT, `trade_turnover` the 24h turnover in USDT.
    openInterestUsd: readNumber(interest?.value),
    volume24hUsd: readNumber(interest?.trade_turnover),
    observedAt: payloadTime ?? fetchedAt,
  };
}
