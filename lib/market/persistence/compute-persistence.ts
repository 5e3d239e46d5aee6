import type { Db } from "@/lib/db";
import { HOURS_PER_YEAR } from "../model/apr";
import { marketKey } from "../model/market-average";
import { computePairRecord, HOUR_MS, HOURS_30D, HOURS_7D, type MarketSeries, type PairRecord } from "./pair-persistence";
import { borrowedSpot, borrowedSpotSeries } from "./borrowed-spot";
import { HELD_SPOT, HELD_SPOT_SERIES } from "./held-spot";
import { crossVenuePairs, PersistenceSet, type MarketRef } from "./persistence-set";
import { settledHourlyRates } from "./settled-hours";

/**
 * Markets read per batch of assets: bounds what is held at once whatever the number of markets, and
 * how long one query runs (on embedded PGlite a query runs on this thread, so it is also the longest
 * the event loop waits).
 */
const MARKETS_PER_BATCH = 100;
/** Pairs computed between two turns of the event loop, so requests are not held up for long. */
const PAIRS_PER_TURN = 2_000;
/** A market counts when it was observed in this many hours before `through`; older ones are delisted or long stale. */
const LISTED_WITHIN_HOURS = 24;

export interface PersistenceComputation {
  set: PersistenceSet;
  markets: number;
  hourlyRows: number;
  settlements: number;
  /** Hourly borrow rates read (BorrowRate rows). */
  borrowHours: number;
  /** Milliseconds spent waiting for the database, and computing. */
  readMs: number;
  computeMs: number;
}

interface Market {
  exchange: string;
  market: string;
  base: string;
  key: string;
}

/**
 * Every cross-venue pair's persistence for the hours before `through` (an hour's start, epoch ms):
 * the pairs of markets of one asset on two venues, among the markets observed or settled in the last
 * 24 hours, each of those markets against spot held (HELD_SPOT: a `spot_perp` carry's), and each
 * against the asset borrowed on every spot venue that stored a borrow rate for it in those 24 hours
 * (borrowedSpot: a `perp_spot` carry's, the perpetual long). Reads the 30 days of FundingRateHourly,
 * FundingRate and BorrowRate a few hundred markets at a time (whole assets, so every pair is in one
 * batch), aggregated by the database into one row per market with its hours as arrays, and keeps
 * only the pairs' records: memory stays bounded by the batch,
 * not by the history. An hour this service did not observe takes its APR from the settlements
 * stored for it (backfilled from the venue's history, or the offline sample's), so an install has
 * persistence as soon as it has history, not only after 30 days of its own rounds. `previous` is the
 * set computed before, for runs longer than 30 days.
 */
export async function computePersistence(db: Db, through: number, previous: PersistenceSet | null): Promise<PersistenceComputation> {
  const start30 = through - HOURS_30D * HOUR_MS;
  const firstHour = start30 / HOUR_MS;
  const listedSince = new Date(through - LISTED_WITHIN_HOURS * HOUR_MS);
  const listed = await db.$queryRaw<{ exchange: string; market: string; base: string }[]>`
    SELECT exchange, market, base FROM "FundingRateHourly" WHERE hour >= ${listedSince} AND hour < ${new Date(through)}
    UNION
    SELECT exchange, market, base FROM "FundingRate" WHERE time > ${listedSince} AND time <= ${new Date(through)}`;
  const byBase = new Map<string, Market[]>();
  for (const m of listed) {
    let list = byBase.get(m.base);
    if (!list) byBase.set(m.base, (list = []));
    list.push({ ...m, key: marketKey(m.exchange, m.market) });
  }
  const exchanges = [...new Set(listed.map((m) => m.exchange))];
  const pairs: [MarketRef, MarketRef, PairRecord][] = [];
  let hourlyRows = 0;
  let settlements = 0;
  let borrowHours = 0;
  let sinceTurn = 0;
  let readMs = 0;
  let computeMs = 0;
  for (const bases of batches([...byBase.keys()].sort(), byBase)) {
    const read = performance.now();
    // Each market's hours as one row of packed binary arrays (big-endian, as PostgreSQL's *send
    // functions write them): ~10 bytes an hour instead of a number's text, and no parsing per value.
    // Aggregates of one group see its rows in the same order, so the arrays line up.
    // One query at a time with a turn of the event loop before each: on PGlite a query holds this
    // thread, and promises settled in a row would otherwise let timers and requests wait for several.
    await nextTurn();
    const hourly = await db.$queryRaw<{ exchange: string; market: string; hours: Uint8Array; aprs: Uint8Array }[]>`
        SELECT exchange, market,
          string_agg(int2send((floor(extract(epoch FROM hour) / 3600) - ${firstHour})::int2), ''::bytea) AS hours,
          string_agg(float8send("aprSum" / samples), ''::bytea) AS aprs
        FROM "FundingRateHourly"
        WHERE exchange = ANY(${exchanges}::text[]) AND base = ANY(${bases}::text[])
          AND hour >= ${new Date(start30)} AND hour < ${new Date(through)}
        GROUP BY exchange, market`;
    await nextTurn();
    const settled = await db.$queryRaw<{ exchange: string; market: string; times: Uint8Array; rates: Uint8Array; intervals: Uint8Array }[]>`
        SELECT exchange, market,
          string_agg(float8send(extract(epoch FROM time)::float8 * 1000), ''::bytea) AS times,
          string_agg(float8send(rate), ''::bytea) AS rates,
          string_agg(float8send(coalesce("intervalHours", 'NaN'::float8)), ''::bytea) AS intervals
        FROM "FundingRate"
        WHERE exchange = ANY(${exchanges}::text[]) AND base = ANY(${bases}::text[])
          AND time > ${new Date(start30)} AND time <= ${new Date(through)}
        GROUP BY exchange, market`;
    await nextTurn();
    // The venues' hourly borrow rates of the batch's assets: a borrowed spot's series (one row per hour).
    const borrowRows = await db.$queryRaw<{ exchange: string; asset: string; last: Date; hours: Uint8Array; aprs: Uint8Array }[]>`
        SELECT exchange, asset, max(time) AS last,
          string_agg(int2send((floor(extract(epoch FROM time) / 3600) - ${firstHour})::int2), ''::bytea) AS hours,
          string_agg(float8send("aprPct"), ''::bytea) AS aprs
        FROM "BorrowRate"
        WHERE asset = ANY(${bases}::text[]) AND time >= ${new Date(start30)} AND time < ${new Date(through)}
        GROUP BY exchange, asset`;
    let computing = performance.now();
    readMs += computing - read;
    const series = new Map<string, MarketSeries>();
    const seriesOf = (key: string) => {
      let s = series.get(key);
      if (!s) series.set(key, (s = { apr: new Float64Array(HOURS_30D).fill(Number.NaN), paid: new Float64Array(HOURS_7D).fill(Number.NaN) }));
      return s;
    };
    for (const row of hourly) {
      const { apr } = seriesOf(marketKey(row.exchange, row.market));
      const [hours, aprs] = [view(row.hours), view(row.aprs)];
      const count = hours.byteLength / 2;
      for (let i = 0; i < count; i++) apr[hours.getInt16(i * 2)] = aprs.getFloat64(i * 8);
      hourlyRows += count;
    }
    for (const row of settled) {
      const [times, rates, intervals] = [view(row.times), view(row.rates), view(row.intervals)];
      const points = Array.from({ length: times.byteLength / 8 }, (_, i) => {
        const intervalHours = intervals.getFloat64(i * 8);
        return { time: times.getFloat64(i * 8), rate: rates.getFloat64(i * 8), intervalHours: Number.isNaN(intervalHours) ? null : intervalHours };
      });
      const paid = settledHourlyRates(points, start30, HOURS_30D);
      const market = seriesOf(marketKey(row.exchange, row.market));
      // Hours observed by the rounds keep their observed APR; the others take what was settled for them.
      for (let i = 0; i < HOURS_30D; i++) if (Number.isNaN(market.apr[i]!)) market.apr[i] = paid[i]! * HOURS_PER_YEAR * 100;
      market.paid = paid.subarray(HOURS_30D - HOURS_7D);
      settlements += points.length;
    }
    const borrowedByBase = new Map<string, { ref: MarketRef; series: MarketSeries }[]>();
    for (const row of borrowRows) {
      const [hours, aprs] = [view(row.hours), view(row.aprs)];
      const count = hours.byteLength / 2;
      borrowHours += count;
      // A venue that stopped lending the asset (or stopped being read) a day ago offers no perp_spot now.
      if (row.last < listedSince) continue;
      const series = borrowedSpotSeries(Array.from({ length: count }, (_, i) => ({ hour: hours.getInt16(i * 2), aprPct: aprs.getFloat64(i * 8) })));
      let list = borrowedByBase.get(row.asset);
      if (!list) borrowedByBase.set(row.asset, (list = []));
      list.push({ ref: borrowedSpot(row.exchange, row.asset), series });
    }
    for (const base of bases) {
      const markets = byBase.get(base) ?? [];
      // Every perpetual against spot held and against spot borrowed (the carry trades' persistence),
      // then the cross-venue pairs. A pair is (first, second, the series of each).
      const pairsOfBase: [MarketRef, MarketSeries, MarketRef, MarketSeries][] = [];
      for (const market of markets) pairsOfBase.push([HELD_SPOT, HELD_SPOT_SERIES, market, seriesOf(market.key)]);
      for (const { ref, series: borrowed } of borrowedByBase.get(base) ?? []) {
        for (const market of markets) pairsOfBase.push([market, seriesOf(market.key), ref, borrowed]);
      }
      for (const [first, second] of crossVenuePairs(markets)) pairsOfBase.push([first, seriesOf(first.key), second, seriesOf(second.key)]);
      for (const [first, firstSeries, second, secondSeries] of pairsOfBase) {
        const before = previous?.find(first, second);
        const record = computePairRecord(
          firstSeries,
          secondSeries,
          through,
          before && previous ? { through: previous.through, record: sameOrder(before) } : undefined,
        );
        pairs.push([first, second, record]);
        if (++sinceTurn >= PAIRS_PER_TURN) {
          sinceTurn = 0;
          computeMs += performance.now() - computing;
          await nextTurn();
          computing = performance.now();
        }
      }
    }
    computeMs += performance.now() - computing;
  }
  return { set: PersistenceSet.of(through, pairs), markets: listed.length, hourlyRows, settlements, borrowHours, readMs, computeMs };
}

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A record found from (first, second) in this computation's orientation: sets store pairs in key order, so turning round is a safeguard. */
function sameOrder({ record, aIsFirst }: { record: PairRecord; aIsFirst: boolean }): PairRecord {
  return aIsFirst ? record : { ...record, sinceSign: (0 - record.sinceSign) as PairRecord["sinceSign"] };
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Assets in groups of about MARKETS_PER_BATCH markets; an asset is never split. */
function* batches(bases: readonly string[], byBase: ReadonlyMap<string, readonly Market[]>): Generator<string[]> {
  let batch: string[] = [];
  let markets = 0;
  for (const base of bases) {
    batch.push(base);
    markets += byBase.get(base)?.length ?? 0;
    if (markets >= MARKETS_PER_BATCH) {
      yield batch;
      batch = [];
      markets = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
