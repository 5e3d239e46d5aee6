import { roundTo } from "@/lib/round";
import { atCap } from "./at-cap";
import { marketKey, pairAverage, type MarketAverage } from "./market-average";
import { priceSpread } from "./price-spread";
import { emptyColumnArrays, itemsOf, reorder, ValueList, type OpportunityColumns } from "./opportunity-columns";
import { UNKNOWN_PERSISTENCE, type MarketSnapshot, type Opportunity, type OpportunityLeg, type Persistence } from "./types";

export const HOURS_PER_YEAR = 8760;
/** Holding period over which `net_apr` spreads the entry and exit fees, unless a caller says. */
export const DEFAULT_HOLDING_DAYS = 7;
/**
 * Taker fee charged for a leg whose venue did not state one: 0.06 %, the highest base-tier taker
 * fee among the supported venues, so a missing fee can only make `net_apr` too low, never too high.
 */
export const DEFAULT_TAKER_FEE = 0.0006;

export interface FundingLeg {
  /** Decimal rate per interval. */
  rate: number;
  intervalHours: number;
}

/** A leg's funding as percent per year: rate × 8760 / interval × 100. */
export function annualisedFundingPct(leg: FundingLeg): number {
  return ((leg.rate * HOURS_PER_YEAR) / leg.intervalHours) * 100;
}

/**
 * Gross funding APR of long `long` / short `short`, percent per year. The short leg receives its
 * rate and the long leg pays its rate, so a negative long rate adds to the income.
 */
export function grossApr(long: FundingLeg, short: FundingLeg): number {
  return annualisedFundingPct(short) - annualisedFundingPct(long);
}

/**
 * Taker fees of opening and closing both legs (four fills: 2 × long fee + 2 × short fee, each a
 * fraction of the notional of one leg, the same notional the APR is measured on), paid once per
 * holding period and expressed as percent per year.
 */
export function feeDragApr(longTakerFee: number, shortTakerFee: number, holdingDays: number): number {
  assertHoldingDays(holdingDays);
  const roundTrip = 2 * (longTakerFee + shortTakerFee);
  return ((roundTrip * HOURS_PER_YEAR) / 24 / holdingDays) * 100;
}

function assertHoldingDays(holdingDays: number): void {
  if (!(holdingDays > 0) || !Number.isFinite(holdingDays)) {
    throw new RangeError(`holdingDays must be a positive number, got ${holdingDays}`);
  }
}

/** `apr` after the fee round trip; negative when fees outweigh the funding over the holding period. */
export function netApr(apr: number, longTakerFee: number, shortTakerFee: number, holdingDays: number): number {
  return apr - feeDragApr(longTakerFee, shortTakerFee, holdingDays);
}

/** Short minus long funding, each rescaled to an 8-hour interval; a decimal like the rates. */
export function fundingSpread8h(long: FundingLeg, short: FundingLeg): number {
  return (short.rate * 8) / short.intervalHours - (long.rate * 8) / long.intervalHours;
}

export interface ComputeOpportunitiesOptions {
  /** Days over which `net_apr` spreads the fee round trip; default {@link DEFAULT_HOLDING_DAYS}. */
  holdingDays?: number;
  /** Fee for legs without a stated taker fee; default {@link DEFAULT_TAKER_FEE}. */
  fallbackTakerFee?: number;
  /**
   * Each pair's `persistence` (long, short), known from stored history (lib/market/persistence/);
   * unknown without. Asked while pairs are formed, an asset at a time, where its markets are at hand:
   * looking 100k pairs up afterwards, in APR order, took three times as long.
   */
  persistence?: (long: MarketSnapshot, short: MarketSnapshot) => Persistence | undefined;
  /**
   * Each market's mean annualised funding over the last day and week, by `marketKey`: given, every
   * opportunity carries `apr_1d_avg` / `apr_7d_avg` (`pairAverage`, null where a leg has no history);
   * without, it has neither (the sandbox keeps no history). Looked up once per market, not per pair.
   */
  averages?: ReadonlyMap<string, MarketAverage>;
}

export interface OpportunityScan {
  opportunities: Opportunity[];
  skipped: SkippedSnapshots;
}

export interface SkippedSnapshots {
  /** Snapshots without a funding rate. */
  missingRate: number;
  /** Snapshots whose funding interval could not be read from the venue. */
  unknownInterval: number;
  /**
   * Extra markets of one venue for one asset (`BTC/USDT:USDT` beside `BTC/USDC:USDC`): each venue
   * contributes its most traded market per asset, so an asset pair has one id per venue pair.
   */
  shadowed: number;
}

interface Candidate {
  snapshot: MarketSnapshot;
  rate: number;
  intervalHours: number;
  annualisedPct: number;
  unitPrice: number | null;
  /** The market's mean annualised funding, when averages were asked for. */
  average: MarketAverage | undefined;
  /** Its leg's position in the set's leg list (built once per market: an asset on 8 venues is in 7 pairs). */
  leg: number;
  /** Its observation time's position in the set's texts. */
  observed: number;
}

/**
 * Every cross-venue pair of markets on the same asset, long where annualised funding is cheaper and
 * short where it is dearer, sorted by `apr` descending with ties broken by `id`. Pure: the same
 * snapshots always give the same list. The objects of `rankOpportunities`' columns.
 */
export function computeOpportunities(
  snapshots: readonly MarketSnapshot[],
  options: ComputeOpportunitiesOptions = {},
): OpportunityScan {
  const { columns, skipped } = rankOpportunities(snapshots, options);
  return { opportunities: itemsOf(columns), skipped };
}

const ITEM_KEYS = [
  "id",
  "symbol",
  "type",
  "long",
  "short",
  "apr",
  "net_apr",
  "funding_spread_8h",
  "price_spread_bps",
  "price_spread_unavailable_reason",
  "open_interest_usd",
  "volume_24h_usd",
  "updated_at",
  "persistence",
] as const satisfies readonly (keyof Opportunity)[];

/**
 * `computeOpportunities` into columns (lib/market/opportunity-columns.ts), what a round publishes:
 * each pair's figures written straight into typed arrays, its legs and texts as positions, no
 * object per pair.
 */
export function rankOpportunities(
  snapshots: readonly MarketSnapshot[],
  options: ComputeOpportunitiesOptions = {},
): { columns: OpportunityColumns; skipped: SkippedSnapshots } {
  const holdingDays = options.holdingDays ?? DEFAULT_HOLDING_DAYS;
  const fallbackTakerFee = options.fallbackTakerFee ?? DEFAULT_TAKER_FEE;
  // Checked up front, so a bad option fails even when there is no pair to price.
  assertHoldingDays(holdingDays);

  const skipped = { missingRate: 0, unknownInterval: 0, shadowed: 0 };
  const byBase = new Map<string, Map<string, Candidate>>();
  for (const snapshot of snapshots) {
    if (snapshot.fundingRate === null) {
      skipped.missingRate += 1;
      continue;
    }
    if (snapshot.fundingIntervalHours === null) {
      skipped.unknownInterval += 1;
      continue;
    }
    const candidate: Candidate = {
      snapshot,
      rate: snapshot.fundingRate,
      intervalHours: snapshot.fundingIntervalHours,
      annualisedPct: annualisedFundingPct({ rate: snapshot.fundingRate, intervalHours: snapshot.fundingIntervalHours }),
      unitPrice: snapshot.markPrice === null ? null : snapshot.markPrice / snapshot.contractMultiplier,
      average: options.averages?.get(marketKey(snapshot.exchange, snapshot.market)),
      leg: -1,
      observed: -1,
    };
    let venues = byBase.get(snapshot.base);
    if (!venues) {
      venues = new Map();
      byBase.set(snapshot.base, venues);
    }
    const held = venues.get(snapshot.exchange);
    if (held) skipped.shadowed += 1;
    if (!held || preferred(candidate.snapshot, held.snapshot)) venues.set(snapshot.exchange, candidate);
  }

  let count = 0;
  for (const venues of byBase.values()) count += (venues.size * (venues.size - 1)) / 2;
  const legs = new ValueList<OpportunityLeg>();
  const texts = new ValueList<string>();
  const ids = new Array<string>(count);
  const c = emptyColumnArrays(count);
  const perpPerp = texts.at("perp_perp");
  let k = 0;
  for (const [symbol, venues] of byBase) {
    if (venues.size < 2) continue;
    const candidates = [...venues.values()].sort((a, b) => compareText(a.snapshot.exchange, b.snapshot.exchange));
    for (const candidate of candidates) {
      const observedIso = new Date(candidate.snapshot.observedAt).toISOString();
      candidate.leg = legs.at(toLeg(candidate.snapshot, candidate.rate, candidate.intervalHours, observedIso));
      candidate.observed = texts.at(observedIso);
    }
    const symbolAt = texts.at(symbol);
    for (let i = 0; i < candidates.length; i += 1) {
      for (let j = i + 1; j < candidates.length; j += 1) {
        const a = candidates[i]!;
        const b = candidates[j]!;
        // Equal annualised funding keeps exchange order, so the id stays put while the APR is 0.
        const bLonger = b.annualisedPct < a.annualisedPct;
        const long = bLonger ? b : a;
        const short = bLonger ? a : b;
        ids[k] = opportunityId(symbol, long.snapshot.exchange, short.snapshot.exchange);
        c.symbol[k] = symbolAt;
        c.type[k] = perpPerp;
        c.long[k] = long.leg;
        c.short[k] = short.leg;
        const apr = short.annualisedPct - long.annualisedPct;
        const net = netApr(apr, long.snapshot.takerFee ?? fallbackTakerFee, short.snapshot.takerFee ?? fallbackTakerFee, holdingDays);
        c.apr.put(k, roundTo(apr, 6));
        c.net_apr.put(k, roundTo(net, 6));
        c.funding_spread_8h.put(k, roundTo(fundingSpread8h(long, short), 12));
        const spread = priceSpread(
          { unitPrice: long.unitPrice, observedAt: long.snapshot.observedAt },
          { unitPrice: short.unitPrice, observedAt: short.snapshot.observedAt },
        );
        c.price_spread_bps.put(k, spread.price_spread_bps);
        c.price_spread_unavailable_reason[k] = texts.at(spread.price_spread_unavailable_reason);
        c.open_interest_usd.put(k, smallerKnown(long.snapshot.openInterestUsd, short.snapshot.openInterestUsd));
        c.volume_24h_usd.put(k, smallerKnown(long.snapshot.volume24hUsd, short.snapshot.volume24hUsd));
        c.updated_at[k] = long.snapshot.observedAt <= short.snapshot.observedAt ? long.observed : short.observed;
        if (options.averages) {
          c.apr_1d_avg.put(k, pairAverage(short.average?.day, long.average?.day));
          c.apr_7d_avg.put(k, pairAverage(short.average?.week, long.average?.week));
        }
        // Known only from stored history; unknown without it.
        const p = options.persistence?.(long.snapshot, short.snapshot) ?? UNKNOWN_PERSISTENCE;
        c["persistence.as_of"][k] = texts.at(p.as_of);
        c["persistence.positive_since"][k] = texts.at(p.positive_since);
        c["persistence.apr_median_7d"].put(k, p.apr_median_7d);
        c["persistence.apr_median_30d"].put(k, p.apr_median_30d);
        c["persistence.paid_share_7d"].put(k, p.paid_share_7d);
        c["persistence.apr_stddev_7d"].put(k, p.apr_stddev_7d);
        k += 1;
      }
    }
  }
  const keys: string[] = [...ITEM_KEYS];
  if (options.averages) keys.push("apr_1d_avg", "apr_7d_avg");
  const columns: OpportunityColumns = { ...c, count, keys, ids, legs: legs.list, texts: texts.list };
  return { columns: reorder(columns, byAprThenId(columns)), skipped };
}

/**
 * Highest `apr` first, ties by `id`. The APRs are radix-sorted as their IEEE 754 bits (no
 * comparisons), and only runs of equal APR then compared by id: sorting 150,000 items with a
 * comparator took 200 ms of a round.
 */
function byAprThenId(columns: OpportunityColumns): Uint32Array {
  const aprs = columns.apr.values;
  const order = descendingOrder(aprs);
  const byId = (a: number, b: number) => compareText(columns.ids[a]!, columns.ids[b]!);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && aprs[order[end]!] === aprs[order[start]!]) end += 1;
    if (end - start > 1) order.subarray(start, end).sort(byId);
    start = end;
  }
  return order;
}

/**
 * The positions of `values` from the largest to the smallest, equal values in position order:
 * a least-significant-digit radix sort, 16 bits a pass, of each double's bits made to sort as
 * unsigned integers (negative numbers with every bit flipped, the others with the sign bit set),
 * then read backwards per run. Values are finite, and −0 is never among them (roundTo makes it 0).
 */
export function descendingOrder(values: Float64Array): Uint32Array {
  const count = values.length;
  const words = new Uint32Array(values.buffer, values.byteOffset, count * 2);
  // Little-endian: word 2i is the low half of value i, 2i + 1 the high half with the sign.
  const low = new Uint32Array(count);
  const high = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const negative = words[2 * i + 1]! >>> 31 === 1;
    low[i] = negative ? ~words[2 * i]! >>> 0 : words[2 * i]!;
    high[i] = negative ? ~words[2 * i + 1]! >>> 0 : (words[2 * i + 1]! | 0x8000_0000) >>> 0;
  }
  let order = Uint32Array.from({ length: count }, (_, i) => i);
  let next = new Uint32Array(count);
  const counts = new Uint32Array(65_537);
  for (const [keys, shift] of [[low, 0], [low, 16], [high, 0], [high, 16]] as const) {
    counts.fill(0);
    for (let i = 0; i < count; i++) counts[((keys[order[i]!]! >>> shift) & 0xffff) + 1]! += 1;
    for (let d = 1; d < counts.length; d++) counts[d]! += counts[d - 1]!;
    for (let i = 0; i < count; i++) {
      const at = order[i]!;
      next[counts[(keys[at]! >>> shift) & 0xffff]!++] = at;
    }
    [order, next] = [next, order];
  }
  // Ascending now, equal values in position order; reversed run by run so they stay in that order.
  const descending = new Uint32Array(count);
  let out = 0;
  for (let end = count; end > 0; ) {
    let start = end - 1;
    while (start > 0 && values[order[start - 1]!] === values[order[end - 1]!]) start -= 1;
    descending.set(order.subarray(start, end), out);
    out += end - start;
    end = start;
  }
  return descending;
}

/** Stable across refreshes: the same asset and the same long/short venues give the same id. */
export function opportunityId(symbol: string, longExchange: string, shortExchange: string): string {
  return `${symbol}-${longExchange}-${shortExchange}`;
}

/** One market's leg, built once and shared by every pair it is in (frozen: no pair may change another's). */
function toLeg(s: MarketSnapshot, rate: number, intervalHours: number, observedIso: string): OpportunityLeg {
  const predicted = s.predictedFundingRate ?? null;
  const [cap, floor] = [s.rateCap ?? null, s.rateFloor ?? null];
  return Object.freeze({
    exchange: s.exchange,
    market: s.market,
    funding_rate: rate,
    funding_interval_hours: intervalHours,
    funding_interval_source: s.fundingIntervalSource,
    funding_rate_per_hour: roundTo(rate / intervalHours, 12),
    predicted_funding_rate: predicted,
    last_settled_rate: s.lastSettlement?.rate ?? null,
    last_settled_at: s.lastSettlement ? new Date(s.lastSettlement.at).toISOString() : null,
    rate_cap: cap,
    rate_floor: floor,
    at_cap: atCap([rate, predicted], cap, floor),
    next_funding_at: s.nextFundingAt === null ? null : new Date(s.nextFundingAt).toISOString(),
    mark_price: s.markPrice,
    open_interest_usd: s.openInterestUsd,
    volume_24h_usd: s.volume24hUsd,
    interval_changed_at: s.intervalChangedAt == null ? null : new Date(s.intervalChangedAt).toISOString(),
    observed_at: observedIso,
  });
}

/** Which of a venue's markets for one asset represents it: most traded, then USDT, then symbol. */
function preferred(challenger: MarketSnapshot, holder: MarketSnapshot): boolean {
  const volume = (challenger.volume24hUsd ?? -1) - (holder.volume24hUsd ?? -1);
  if (volume !== 0) return volume > 0;
  const usdt = Number(challenger.settle === "USDT") - Number(holder.settle === "USDT");
  if (usdt !== 0) return usdt > 0;
  return compareText(challenger.market, holder.market) < 0;
}

/** A pair is only as deep as its shallower leg; unknown on either side means unknown. */
function smallerKnown(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.min(a, b);
}

// Code-unit order, not locale order: ids must sort identically on every machine.
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
