import { roundTo } from "@/lib/round";
import { atCap } from "./at-cap";
import { marketKey, pairAverage, type MarketAverage } from "./market-average";
import { priceSpread } from "./price-spread";
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
  skipped: {
    /** Snapshots without a funding rate. */
    missingRate: number;
    /** Snapshots whose funding interval could not be read from the venue. */
    unknownInterval: number;
    /**
     * Extra markets of one venue for one asset (`BTC/USDT:USDT` beside `BTC/USDC:USDC`): each venue
     * contributes its most traded market per asset, so an asset pair has one id per venue pair.
     */
    shadowed: number;
  };
}

interface Candidate {
  snapshot: MarketSnapshot;
  rate: number;
  intervalHours: number;
  annualisedPct: number;
  unitPrice: number | null;
  /** Built once per market: an asset on 8 venues appears in 7 pairs. */
  leg: OpportunityLeg;
  observedIso: string;
  /** The market's mean annualised funding, when averages were asked for. */
  average: MarketAverage | undefined;
}

/**
 * Every cross-venue pair of markets on the same asset, long where annualised funding is cheaper and
 * short where it is dearer, sorted by `apr` descending with ties broken by `id`. Pure: the same
 * snapshots always give the same list.
 */
export function computeOpportunities(
  snapshots: readonly MarketSnapshot[],
  options: ComputeOpportunitiesOptions = {},
): OpportunityScan {
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
    const observedIso = new Date(snapshot.observedAt).toISOString();
    const candidate: Candidate = {
      snapshot,
      rate: snapshot.fundingRate,
      intervalHours: snapshot.fundingIntervalHours,
      annualisedPct: annualisedFundingPct({ rate: snapshot.fundingRate, intervalHours: snapshot.fundingIntervalHours }),
      unitPrice: snapshot.markPrice === null ? null : snapshot.markPrice / snapshot.contractMultiplier,
      leg: toLeg(snapshot, snapshot.fundingRate, snapshot.fundingIntervalHours, observedIso),
      observedIso,
      average: options.averages?.get(marketKey(snapshot.exchange, snapshot.market)),
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

  const opportunities: Opportunity[] = [];
  for (const [symbol, venues] of byBase) {
    const legs = [...venues.values()].sort((a, b) => compareText(a.snapshot.exchange, b.snapshot.exchange));
    for (let i = 0; i < legs.length; i += 1) {
      for (let j = i + 1; j < legs.length; j += 1) {
        const a = legs[i];
        const b = legs[j];
        if (!a || !b) continue;
        // Equal annualised funding keeps exchange order, so the id stays put while the APR is 0.
        const bLonger = b.annualisedPct < a.annualisedPct;
        const long = bLonger ? b : a;
        const short = bLonger ? a : b;
        const opportunity = buildOpportunity(symbol, long, short, holdingDays, fallbackTakerFee);
        const persistence = options.persistence?.(long.snapshot, short.snapshot);
        if (persistence) opportunity.persistence = persistence;
        if (options.averages) {
          opportunity.apr_1d_avg = pairAverage(short.average?.day, long.average?.day);
          opportunity.apr_7d_avg = pairAverage(short.average?.week, long.average?.week);
        }
        opportunities.push(opportunity);
      }
    }
  }
  return { opportunities: byAprThenId(opportunities), skipped };
}

/**
 * Highest `apr` first, ties by `id`. The APRs are radix-sorted as their IEEE 754 bits (no
 * comparisons), and only runs of equal APR then compared by id: sorting 150,000 items with a
 * comparator took 200 ms of a round.
 */
function byAprThenId(opportunities: readonly Opportunity[]): Opportunity[] {
  const order = descendingOrder(Float64Array.from(opportunities, (o) => o.apr));
  const aprOf = (position: number) => opportunities[order[position]!]!.apr;
  const byId = (a: number, b: number) => compareText(opportunities[a]!.id, opportunities[b]!.id);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && aprOf(end) === aprOf(start)) end += 1;
    if (end - start > 1) order.subarray(start, end).sort(byId);
    start = end;
  }
  return Array.from(order, (i) => opportunities[i]!);
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

function buildOpportunity(
  symbol: string,
  long: Candidate,
  short: Candidate,
  holdingDays: number,
  fallbackTakerFee: number,
): Opportunity {
  const apr = short.annualisedPct - long.annualisedPct;
  const net = netApr(
    apr,
    long.snapshot.takerFee ?? fallbackTakerFee,
    short.snapshot.takerFee ?? fallbackTakerFee,
    holdingDays,
  );
  const spread = priceSpread(
    { unitPrice: long.unitPrice, observedAt: long.snapshot.observedAt },
    { unitPrice: short.unitPrice, observedAt: short.snapshot.observedAt },
  );
  return {
    id: opportunityId(symbol, long.snapshot.exchange, short.snapshot.exchange),
    symbol,
    type: "perp_perp",
    long: long.leg,
    short: short.leg,
    apr: roundTo(apr, 6),
    net_apr: roundTo(net, 6),
    funding_spread_8h: roundTo(fundingSpread8h(long, short), 12),
    price_spread_bps: spread.price_spread_bps,
    price_spread_unavailable_reason: spread.price_spread_unavailable_reason,
    open_interest_usd: smallerKnown(long.snapshot.openInterestUsd, short.snapshot.openInterestUsd),
    volume_24h_usd: smallerKnown(long.snapshot.volume24hUsd, short.snapshot.volume24hUsd),
    updated_at: long.snapshot.observedAt <= short.snapshot.observedAt ? long.observedIso : short.observedIso,
    // Known only from stored history: `options.persistence` replaces it.
    persistence: UNKNOWN_PERSISTENCE,
  };
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
