import type { UnderlyingClass } from "../../model/types";
import { readNumber, type FundingObservation } from "./build-snapshot";
import { httpMarket } from "./http-market";
import type { HttpClient } from "./http-client";
import { asRecord, errorMessage, rowsOf, type HttpMarket, type HttpVenueAdapter, type VenueCollection } from "./venue-adapter";

const API = "/api/v2/public";

/**
 * Contract ids asked in one `getLatestFundingRate`: the endpoint takes a list of ids (edgeX's V2
 * funding API docs); a public client asked all 173 of them comma-joined in one request. A larger
 * listing is split so one URL stays bounded.
 */
export const EDGEX_FUNDING_BATCH = 200;

/** `data` of an edgeX answer, which must say `code: "SUCCESS"`. */
export function edgexData(payload: unknown, what: string): unknown {
  const body = asRecord(payload);
  if (body?.code !== "SUCCESS") throw new Error(`${what}: code ${String(body?.code)} ${String(body?.msg ?? "")}`.trim());
  return body.data;
}

/**
 * The class edgeX declares: `isFx` and `isStock` flag currencies and stocks (ETFs are `isStock`).
 * Metals carry neither flag (XAUUSDC is `isStock: false, isFx: false`) and stay in the default
 * class, as the centralised venues' gold perpetuals (MEXC's XAU) do, so the same gold pairs across
 * them; labelling it a commodity here alone would part it from every unlabelled XAU.
 */
export function edgexUnderlyingClass(contract: Record<string, unknown>): UnderlyingClass {
  if (contract.isFx === true) return "fx";
  if (contract.isStock === true) return "equity";
  return "crypto";
}

/** Each contract as a market, named by the coins its metadata declares. */
export function edgexMarkets(data: unknown): HttpMarket[] {
  const record = asRecord(data);
  const coins = new Map(
    rowsOf(record, "coinList").map((coin) => [String(coin.coinId), typeof coin.coinName === "string" ? coin.coinName.toUpperCase() : ""]),
  );
  return rowsOf(record, "contractList").map((contract) => {
    const id = typeof contract.contractName === "string" ? contract.contractName : String(contract.contractId ?? "");
    // The declared base coin, not the name: `1000PEPEUSDC` declares `1000PEPE` (the multiplier
    // stays), and contracts named in other scripts (`哈基米USDC`) declare a Latin code (`HAJIMI`).
    const base = coins.get(String(contract.baseCoinId)) ?? "";
    // The quote coin is the collateral the contract settles in (USDC on every V2 contract).
    const quote = coins.get(String(contract.quoteCoinId)) ?? "";
    const taker = readNumber(contract.defaultTakerFeeRate);
    // Every contract is a perpetual.
    return httpMarket(id, { base, quote, settle: quote }, true, {
      linear: true,
      expiry: undefined,
      // `enableDisplay` only hides a contract in the app; trading and opening decide.
      active: contract.enableTrade === true && contract.enableOpenPosition === true,
      // Each contract states its default taker fee; edgeX publishes no fee numbers (FEES.md).
      taker: taker !== undefined && Number.isFinite(taker) && taker >= 0 ? taker : undefined,
      info: contract,
    });
  });
}

/**
 * One contract's observation from its `getLatestFundingRate` row and its metadata.
 *
 * `fundingTime` is the last settlement boundary and `fundingRate` the rate edgeX finalised there: its
 * docs define it as the rate "for the 08:00-09:00 period … finalized at 08:00, and used for
 * settlement at 09:00", so it is the current interval's rate, settling at `fundingTime` plus the
 * interval. `forecastFundingRate` is the running estimate of the rate to be finalised at that next
 * boundary: edgeX's forecast, of the rate after the current one. (A public client reads `fundingRate`
 * as settled and paid at `fundingTime` instead; the docs' definition is followed here.)
 * `predictedFundingRate` in the row is no forecast: the docs define it as the interest component
 * (`interestRate` / frequency), the same 0.00005 on every contract.
 */
export function edgexObservation(row: Record<string, unknown>, market: HttpMarket): FundingObservation {
  const contract = market.info;
  const minutes = readNumber(row.fundingRateIntervalMin) ?? readNumber(contract.fundingRateIntervalMin);
  const interval = minutes !== undefined && Number.isFinite(minutes) && minutes > 0 ? { hours: minutes / 60, source: "venue" as const } : null;
  const boundary = readNumber(row.fundingTime);
  const underlying = edgexUnderlyingClass(contract);
  return {
    symbol: market.symbol,
    fundingRate: readNumber(row.fundingRate),
    predictedFundingRate: readNumber(row.forecastFundingRate),
    // Per interval, like the rates (the contract's metadata: ±0.002 on BTC's 4-hour interval).
    rateCap: readNumber(contract.fundingMaxRate),
    rateFloor: readNumber(contract.fundingMinRate),
    interval,
    nextFundingAt: boundary !== undefined && interval !== null ? boundary + interval.hours * 3_600_000 : boundary,
    // Older answers carry only the oracle price, which is what the mark follows.
    markPrice: readNumber(row.markPrice) ?? readNumber(row.oraclePrice),
    indexPrice: readNumber(row.indexPrice),
    // Open interest and volume are only in the per-contract `getTicker` (one request a contract,
    // and no list form), which a refresh does not ask.
    openInterestUsd: undefined,
    volume24hUsd: undefined,
    // The time this rate was calculated (edgeX recalculates it every minute).
    observedAt: readNumber(row.fundingTimestamp),
    ...(underlying === "crypto" ? {} : { underlyingClass: underlying }),
  };
}

async function latestRates(http: HttpClient, ids: readonly string[]): Promise<Record<string, unknown>[]> {
  return rowsOf(edgexData(await http.getJson(`${API}/funding/getLatestFundingRate`, { contractId: ids.join(",") }), "getLatestFundingRate"));
}

/**
 * edgeX (V2) over plain HTTP (no ccxt class): the metadata lists every contract with its interval,
 * bounds and fee; `getLatestFundingRate` answers the live funding of a list of contracts at once.
 * One funding request a refresh per 200 contracts, the metadata kept as a market list. A failed batch costs its contracts their rates (a
 * warning); all failing makes the venue stale. V1 (`pro.edgex.exchange/api/v1`) is not read: a
 * public client found its data calls all answering empty once V2's USDC contracts replaced it.
 */
export const edgexAdapter: HttpVenueAdapter = {
  kind: "http",
  id: "edgex",
  baseUrl: "https://edgex-prod-v2.edgex.exchange",
  // edgeX publishes no figure ("Rate Limits Apply"); 300 ms between requests.
  requestSpacingMs: 300,
  keepsMarketList: true,
  async loadMarkets(http) {
    return edgexMarkets(edgexData(await http.getJson(`${API}/meta/getMetaData`), "getMetaData"));
  },
  async collect(http, { marketsById }): Promise<VenueCollection> {
    const byContractId = new Map(
      [...marketsById.values()].filter((market) => market.active !== false).map((market) => [String(market.info.contractId), market]),
    );
    const ids = [...byContractId.keys()];
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += EDGEX_FUNDING_BATCH) batches.push(ids.slice(i, i + EDGEX_FUNDING_BATCH));
    type Answer = { rows: Record<string, unknown>[] } | { batch: string[]; error: unknown };
    const answers = await Promise.all(
      batches.map(async (batch): Promise<Answer> => {
        try {
          return { rows: await latestRates(http, batch) };
        } catch (error) {
          return { batch, error };
        }
      }),
    );
    const observations: FundingObservation[] = [];
    const warnings: string[] = [];
    for (const answer of answers) {
      if ("error" in answer) {
        if (answers.length === 1) throw answer.error;
        warnings.push(`funding: a batch of ${answer.batch.length} contracts failed: ${errorMessage(answer.error)}`);
        continue;
      }
      for (const row of answer.rows) {
        const market = byContractId.get(String(row.contractId));
        if (market) observations.push(edgexObservation(row, market));
      }
    }
    if (observations.length === 0 && warnings.length > 0) throw new Error(warnings[0]);
    return { observations, warnings };
  },
};
