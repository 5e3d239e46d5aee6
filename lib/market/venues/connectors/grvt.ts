import type { grvt, MarketInterface } from "ccxt";
import { parseIntervalHours } from "../../model/funding-interval";
import { product, readNumber, type FundingObservation } from "./build-snapshot";
import { clientConfig, withMarketParams } from "./ccxt-client";
import { statedInterval } from "./read-interval";
import { tickerPerMarket } from "./ticker-per-market";
import { asRecord, type VenueAdapter } from "./venue-adapter";

/**
 * A GRVT timestamp (unix nanoseconds, sent as a decimal string: `"1764777600000000000"`) as epoch
 * ms. The string is cut rather than divided: 19-digit integers are past a double's exact range.
 * Absent → undefined; anything else → NaN, so a garbled settlement time rejects the row.
 */
export function nanosecondsToMs(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && /^\d+$/.test(value)) return value.length > 6 ? Number(value.slice(0, -6)) : 0;
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.floor(value / 1e6);
  return Number.NaN;
}

/**
 * GRVT writes rates in percentage points: ticker `funding_rate` "0.0037" is 0.0037 % (ccxt divides
 * its funding history by 100 for the same reason), and the instrument bounds "0.3"/"-0.3" are
 * ±0.3 %. GRVT's API reference's "centibeeps" would make BTC's rate 3.7e-9 and its cap 3e-5, neither
 * plausible next to the ±0.3 % other venues allow BTC.
 */
function percent(value: number | undefined): number | undefined {
  // 15 significant digits drop the float noise of the division (0.0037 / 100 = 3.7000000000000005e-5).
  return value === undefined ? undefined : Number((value / 100).toPrecision(15));
}

function sum(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a + b;
}

/** The `result` object of a `full/v1/ticker` answer, checked to be the instrument asked for. */
export function grvtTicker(payload: unknown, instrument: string): Record<string, unknown> {
  const result = asRecord(asRecord(payload)?.result);
  if (!result) throw new Error('ticker: expected an object under "result"');
  if (result.instrument !== instrument) throw new Error(`ticker: asked for ${instrument}, got ${String(result.instrument)}`);
  return result;
}

export function grvtObservation(
  market: MarketInterface,
  ticker: Record<string, unknown>,
  fetchedAt: number,
): FundingObservation {
  const instrument = asRecord(market.info) ?? {};
  const markPrice = readNumber(ticker.mark_price);
  return {
    symbol: market.symbol,
    // "The funding rate being applied over funding_interval_hours (interval ending at
    // next_funding_time)". `funding_rate_8h_curr`/`_avg` are deprecated and not read.
    fundingRate: percent(readNumber(ticker.funding_rate)),
    // GRVT publishes no forecast apart from the current interval's rate.
    predictedFundingRate: undefined,
    rateCap: percent(readNumber(instrument.adjusted_funding_rate_cap)),
    rateFloor: percent(readNumber(instrument.adjusted_funding_rate_floor)),
    // The ticker states the interval its rate applies over; the instrument list states it too.
    interval: statedInterval(
      parseIntervalHours(ticker.funding_interval_hours) ?? parseIntervalHours(instrument.funding_interval_hours),
    ),
    nextFundingAt: nanosecondsToMs(ticker.next_funding_time),
    markPrice,
    indexPrice: readNumber(ticker.index_price),
    // `open_interest` is in the base asset; 24h volume is split into taker buys and sells, in USDT.
    openInterestUsd: product(readNumber(ticker.open_interest), markPrice),
    volume24hUsd: sum(readNumber(ticker.buy_volume_24h_q), readNumber(ticker.sell_volume_24h_q)),
    observedAt: nanosecondsToMs(ticker.event_time) ?? fetchedAt,
  };
}

export const grvtAdapter: VenueAdapter<grvt> = {
  id: "grvt",
  // ccxt asks all_instruments for everything; GRVT's `is_active` limits it to tradable
  // instruments (ccxt leaves `active` unknown, so nothing else would drop retired ones).
  create: (lib, config) => withMarketParams(new lib.grvt(clientConfig(config)), { is_active: true }),
  async collect(exchange, { marketsById, fetchedAt }) {
    // GRVT has no all-instrument ticker or funding endpoint: the rate, next settlement and prices
    // come from one `full/v1/ticker` request per perpetual, the only bounded way, a refresh's share
    // of them at a time (tickerPerMarket).
    const perpetuals = [...marketsById.values()].filter((market) => market.swap === true);
    return tickerPerMarket("grvt", exchange, perpetuals, fetchedAt, async (market) => {
      const instrument = market.id ?? "";
      return grvtObservation(market, grvtTicker(await exchange.publicMarketPostFullV1Ticker({ instrument }), instrument), fetchedAt);
    });
  },
};
