import type { apex, MarketInterface } from "ccxt";
import { product, readIsoTime, readNumber, runningEstimate, type FundingObservation } from "./build-snapshot";
import { clientConfig } from "./ccxt-client";
import { nextWholeHour } from "./dydx";
import { asRecord, rowsOf, type VenueAdapter } from "./venue-adapter";

/**
 * ApeX Omni settles funding every hour ("Funding fees will be exchanged between long and short
 * position holders every 1 hour", https://api-docs.omni.apex.exchange, "Funding Fee"). No field of
 * the market list or the tickers states an interval, so its source is `protocol`.
 */
const PROTOCOL_INTERVAL_HOURS = 1;

/** A clock time with no date (`"10:00:00"`), the form of the docs' ticker example. */
const CLOCK_TIME = /^(\d{2}):(\d{2}):(\d{2})$/;

/**
 * `nextFundingTime` as epoch ms. The answers third parties have recorded state an ISO 8601 time
 * (`"2026-09-12T23:00:00Z"`, and ccxt's documented websocket frame likewise); the docs' example
 * states a bare clock time (`"10:00:00"`), which is read as the next whole UTC hour when it names
 * that hour and as unknown otherwise, since it carries no date. Absent: `undefined`; anything else
 * unparseable: `NaN`, so the row is refused as garbled.
 */
export function apexNextFunding(value: unknown, fetchedAt: number): number | undefined {
  const clock = typeof value === "string" ? CLOCK_TIME.exec(value) : null;
  if (!clock) return readIsoTime(value);
  const next = nextWholeHour(fetchedAt);
  const namesNext = Number(clock[1]) === new Date(next).getUTCHours() && clock[2] === "00" && clock[3] === "00";
  return namesNext ? next : undefined;
}

/**
 * ccxt marks a contract active by `enableTrade` alone. A contract whose funding does not settle
 * (`enableFundingSettlement: false`) or that is not yet launched (`isPrelaunch`) pays no funding to
 * compare either, so it counts as inactive too (the docs' "All Config Data" field list names both).
 */
export function apexTradable(market: Pick<MarketInterface, "info">): boolean {
  const info = asRecord(market.info);
  return info?.enableTrade !== false && info?.enableFundingSettlement !== false && info?.isPrelaunch !== true;
}

/**
 * One perpetual from its row of `GET /api/v3/data/all-ticker-info` and its contract in the market
 * list. `fundingRate` is a fraction per hour, the hour's running rate: the rate settled on the hour
 * is the value the row showed then, and it moves within the hour (third-party captures,
 * tests/fixtures/venues/apex/SOURCES.md), so it is also the forecast. The row's
 * `predictedFundingRate` is not read: every recorded value is 0.0000125, the contract's
 * `fundingInterestRate` (0.0003 a day) ÷ 24, the interest component rather than a forecast (as
 * edgeX's field of that name). `fundingMaxRate` / `fundingMinRate` of the contract bound the rate,
 * per hour like it. `openInterest` counts the base asset and is valued at the mark; `turnover24h`
 * is the 24h volume in USDT (`volume24h` is the base asset's). The row carries no time.
 */
export function apexObservation(
  symbol: string,
  row: Record<string, unknown>,
  contract: Record<string, unknown> | undefined,
  fetchedAt: number,
): FundingObservation {
  const markPrice = readNumber(row.markPrice);
  return {
    symbol,
    ...runningEstimate(readNumber(row.fundingRate)),
    rateCap: readNumber(contract?.fundingMaxRate),
    rateFloor: readNumber(contract?.fundingMinRate),
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: apexNextFunding(row.nextFundingTime, fetchedAt),
    markPrice,
    indexPrice: readNumber(row.indexPrice),
    openInterestUsd: product(readNumber(row.openInterest), markPrice),
    volume24hUsd: readNumber(row.turnover24h),
    observedAt: undefined,
  };
}

/**
 * The loaded markets by the name the tickers use: a contract's `symbol` (`BTC-USDT`, ccxt's id) and
 * its `crossSymbolName` (`BTCUSDT`, ccxt's `id2`) differ. Made once per loaded list.
 */
const byTickerName = new WeakMap<ReadonlyMap<string, MarketInterface>, ReadonlyMap<string, MarketInterface>>();

function tickerNames(marketsById: ReadonlyMap<string, MarketInterface>): ReadonlyMap<string, MarketInterface> {
  let found = byTickerName.get(marketsById);
  if (!found) {
    const names = new Map<string, MarketInterface>();
    for (const market of marketsById.values()) {
      const name = asRecord(market.info)?.crossSymbolName;
      if (typeof name === "string") names.set(name, market);
    }
    byTickerName.set(marketsById, (found = names));
  }
  return found;
}

export const apexAdapter: VenueAdapter<apex> = {
  id: "apex",
  // ccxt's fetchMarkets is one `GET /api/v3/symbols` and reads its `contractConfig.perpetualContract`
  // (USDT-settled perpetuals, `BTC-USDT`); currencies, which the same answer carries, are not loaded.
  create: (lib, config) => new lib.apex(clientConfig(config)),
  isTradable: apexTradable,
  async collect(exchange, { marketsById, fetchedAt }) {
    // Every contract's ticker in one request, read raw: ccxt has no funding-rate call for ApeX, and
    // its ticker parse drops the funding fields. A ticker the list lacks (a contract of another
    // list, a collateral's price row) keeps its name as its symbol and is counted unlisted.
    const payload: unknown = await exchange.publicGetV3DataAllTickerInfo();
    const names = tickerNames(marketsById);
    const observations = rowsOf(payload).flatMap((row): FundingObservation[] => {
      const name = row.symbol;
      if (typeof name !== "string") return [];
      const market = names.get(name);
      return [apexObservation(market?.symbol ?? name, row, asRecord(market?.info), fetchedAt)];
    });
    return { observations, warnings: [] };
  },
};
