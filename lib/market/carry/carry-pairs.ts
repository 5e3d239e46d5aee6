import { roundTo } from "@/lib/round";
import { runInSlices, runWhole, type Sliced } from "@/lib/time-slices";
import { assertHoldingDays, DEFAULT_HOLDING_DAYS, DEFAULT_TAKER_FEE, netApr, type FundingLeg } from "../model/apr";
import { isoTexts } from "../model/iso-texts";
import { marketKey } from "../model/market-average";
import { pairingKey } from "../model/underlying-class";
import { UNKNOWN_PERSISTENCE, type MarketSnapshot, type OpportunityLeg, type Persistence } from "../model/types";
import { borrowedSpot } from "../persistence/borrowed-spot";
import { HELD_SPOT } from "../persistence/held-spot";
import type { MarketRef } from "../persistence/persistence-set";
import { ValueList } from "../opportunities/encoding/columns";
import { newArray, type TakeArray } from "../opportunities/encoding/scratch-arrays";
import { compareText, preferred, toLeg, unitPrice, type LegHistory } from "../opportunities/rank-opportunities";
import { USD_SETTLEMENTS } from "../venues/connectors/build-snapshot";
import { carryBasisBps, carryBasisUnavailable, perpSpotApr, spotPerpApr, spotTakerFee } from "./carry-apr";
import { carryIdOfLegs, carryItemsOf, emptyCarryColumns, NO_TEXT, type CarryColumns } from "./carry-columns";
import { carryOrderSlices } from "./carry-id-order";
import { CARRY_TYPES, type CarryOpportunity, type CarrySpotLeg } from "./carry-opportunity";
import { annualisedBorrowPct, type SpotLeg } from "./spot-leg";

export interface CarryOptions {
  /** Days over which `net_apr` spreads the four fills' fees; default {@link DEFAULT_HOLDING_DAYS}, as perp pairs. */
  holdingDays?: number;
  /**
   * PAIR_PRICE_BOUND: a spot leg and a perpetual whose per-unit prices differ by more than this
   * fraction of their mean are not paired (a ticker naming two tokens, a bundle read wrong). Without,
   * none is held to a price, as perp pairs are not (the offline sample, the sandbox).
   */
  priceBound?: number;
  /**
   * A pair's persistence, long market first (PersistenceSet.persistenceOf): a `spot_perp` is asked
   * for (HELD_SPOT, its perpetual), a `perp_spot` for (its perpetual, borrowedSpot(spot venue, asset)). Without, or where it knows none, every figure is unknown.
   */
  persistence?: (long: MarketRef, short: MarketRef) => Persistence | undefined;
  /**
   * Each market's last interval change and settlement from stored history, for the perp legs as
   * the perp set's ranking builds them (toLeg), so a market's leg reads the same in both sets;
   * without, the snapshots' own (none but a venue that states its last settlement).
   */
  marketHistory?: LegHistory;
  /** Where the ranking takes its working arrays (a process's rounds keep them between rounds: ScratchArrays); new ones unless given. */
  take?: TakeArray;
  /** Where the set's columns are taken (a process's rounds: PublishedArrays, memory the set served does not hold); new ones unless given. */
  takeColumns?: TakeArray;
}

/**
 * Every carry opportunity of the perpetuals and spot markets given, in set order (`apr` descending,
 * then `id` in code-unit order: perp pairs' `rankedBefore`). Each spot market meets each perpetual of
 * its asset, on its own venue or another: a `spot_perp` always, a `perp_spot` only where the spot
 * venue lends the asset (`borrow` of the same asset). A venue contributes one market per asset on
 * each side: its perpetual as perp pairs choose it (`preferred`), its spot market quoted in dollars
 * the most traded, then USDT-quoted, then first by symbol. Perpetuals without a rate or an interval are left out, as
 * the ranking leaves them out. Pure: the same legs always give the same list.
 *
 * The price bound is held per pair rather than per asset: a venue whose spot and perpetual both
 * list another token under a ticker is a real carry trade on that token, while either against the
 * other venues' markets is not.
 */
export function rankCarryOpportunities(perps: readonly MarketSnapshot[], spots: readonly SpotLeg[], options: CarryOptions = {}): CarryOpportunity[] {
  return carryItemsOf(rankCarryColumns(perps, spots, options));
}

/** rankCarryOpportunities' set held in columns (carry-columns.ts), built without an object per item. */
export function rankCarryColumns(perps: readonly MarketSnapshot[], spots: readonly SpotLeg[], options: CarryOptions = {}): CarryColumns {
  return runWhole(carryColumnSlices(perps, spots, options));
}

/**
 * rankCarryColumns giving the event loop a turn every `sliceMs` (lib/time-slices.ts): ~200,000
 * items at benchmark breadth are work for the thread that also serves. The inputs must not change
 * until it resolves.
 */
export function rankCarryColumnsInSlices(perps: readonly MarketSnapshot[], spots: readonly SpotLeg[], options: CarryOptions = {}, sliceMs?: number): Promise<CarryColumns> {
  return runInSlices(carryColumnSlices(perps, spots, options), sliceMs);
}

/** How many items the ranking handles between two of its pause points. */
const SLICE_ITEMS = 4_096;

/** A perpetual as the items read it, its figures computed once however many spot markets it meets. */
interface PerpSide {
  snapshot: MarketSnapshot;
  symbol: string;
  funding: FundingLeg;
  /** Annualised funding, percent per year: a `spot_perp`'s gross APR. */
  fundingPct: number;
  takerFee: number;
  /** Mark per unit of the asset (the venue's mark over its bundle size); NaN without a mark. */
  unitPrice: number;
  /** Its position in the set's lists once an item has it, -1 before. */
  leg: number;
  /** The position of its persistence against spot held (`spot_perp`), asked once. */
  persistence: number;
}

/** A spot market as the items read it; `borrowPct` NaN where the venue lends none of the asset. */
interface SpotSide {
  spot: SpotLeg;
  observedAt: number;
  takerFee: number;
  borrowPct: number;
  borrowable: number;
  leg: number;
}

/**
 * Two passes, as the perp set's ranking: the first finds every item's legs, type and APR and puts
 * them in set order by numbers (an APR radix sort with ids' order as tie keys, `carryIdPlaces`), the
 * second writes every other figure row by row in that order.
 */
function* carryColumnSlices(perps: readonly MarketSnapshot[], spots: readonly SpotLeg[], options: CarryOptions): Sliced<CarryColumns> {
  const holdingDays = options.holdingDays ?? DEFAULT_HOLDING_DAYS;
  assertHoldingDays(holdingDays);
  const perpsByAsset = new Map<string, Map<string, MarketSnapshot>>();
  for (const snapshot of perps) {
    if (snapshot.fundingRate === null || snapshot.fundingIntervalHours === null) continue;
    const venues = venuesOf(perpsByAsset, pairingKey(snapshot.base, snapshot.underlyingClass));
    const held = venues.get(snapshot.exchange);
    if (!held || preferred(snapshot, held)) venues.set(snapshot.exchange, snapshot);
  }
  const spotsByAsset = new Map<string, Map<string, SpotLeg>>();
  for (const spot of spots) {
    if (!isDollarQuote(spot.quote)) continue;
    // Spot markets are of crypto assets: a HIP-3 equity or index perpetual of the same ticker never meets them.
    const venues = venuesOf(spotsByAsset, pairingKey(spot.base, undefined));
    const held = venues.get(spot.exchange);
    if (!held || preferredSpot(spot, held)) venues.set(spot.exchange, spot);
  }
  yield;

  const isoOf = isoTexts();
  const spotLegs = new ValueList<CarrySpotLeg>();
  // A list: each perpetual's leg is made once (`perp.leg < 0`), so a ValueList's table would find none.
  const perpLegs: OpportunityLeg[] = [];
  const perpSymbols: string[] = [];
  const persistences = new ValueList<Persistence>();
  const texts = new ValueList<string>();
  const unknown = persistences.at(UNKNOWN_PERSISTENCE);
  // Pass 1: each item's sides, type and APR, in arrays of the most items there can be: a spot_perp
  // and a perp_spot for each spot market and perpetual of an asset.
  const take = options.take ?? newArray;
  let most = 0;
  for (const [asset, spotVenues] of spotsByAsset) most += 2 * spotVenues.size * (perpsByAsset.get(asset)?.size ?? 0);
  const perpSides: PerpSide[] = [];
  const spotSides: SpotSide[] = [];
  const perpOf = take(Uint32Array, most);
  const spotOf = take(Uint32Array, most);
  const typeOf = take(Uint8Array, most);
  const aprs = take(Float64Array, most);
  const persistenceOf = take(Uint32Array, most);
  let count = 0;
  const push = (perp: number, spot: number, type: number, apr: number, persistence: number) => {
    perpOf[count] = perp;
    spotOf[count] = spot;
    typeOf[count] = type;
    aprs[count] = apr;
    persistenceOf[count] = persistence;
    count += 1;
  };
  let pausedAt = 0;
  for (const [asset, spotVenues] of spotsByAsset) {
    const perpVenues = perpsByAsset.get(asset);
    if (!perpVenues) continue;
    if (count - pausedAt >= SLICE_ITEMS) {
      pausedAt = count;
      yield;
    }
    const firstSpot = spotSides.length;
    for (const spot of spotVenues.values()) {
      const borrow = spot.borrow !== null && spot.borrow.asset === spot.base ? spot.borrow : null;
      spotSides.push({
        spot,
        observedAt: Date.parse(spot.observedAt),
        takerFee: spotTakerFee(spot),
        borrowPct: borrow === null ? Number.NaN : annualisedBorrowPct(borrow.rate, borrow.period),
        borrowable: borrow?.borrowable ?? Number.NaN,
        leg: -1,
      });
    }
    for (const snapshot of perpVenues.values()) {
      const perp = perpSides.length;
      const funding = { rate: snapshot.fundingRate!, intervalHours: snapshot.fundingIntervalHours! };
      const side: PerpSide = {
        snapshot,
        funding,
        symbol: snapshot.base,
        fundingPct: spotPerpApr(funding),
        takerFee: snapshot.takerFee ?? DEFAULT_TAKER_FEE,
        unitPrice: unitPrice(snapshot),
        leg: -1,
        persistence: unknown,
      };
      perpSides.push(side);
      let asked = false;
      for (let s = firstSpot; s < spotSides.length; s++) {
        const spot = spotSides[s]!;
        if (options.priceBound !== undefined && !withinBound(side.unitPrice, spot.spot.price, options.priceBound)) continue;
        if (!asked && options.persistence) {
          side.persistence = persistences.at(options.persistence(HELD_SPOT, snapshot) ?? UNKNOWN_PERSISTENCE);
          asked = true;
        }
        push(perp, s, SPOT_PERP, roundTo(side.fundingPct, 6), side.persistence);
        if (Number.isNaN(spot.borrowPct)) continue;
        // Against the asset borrowed on the spot venue: one pair, and one question, an item.
        const borrowed = options.persistence?.(snapshot, borrowedSpot(spot.spot.exchange, spot.spot.base));
        push(perp, s, PERP_SPOT, roundTo(perpSpotApr(funding, spot.borrowPct), 6), borrowed ? persistences.at(borrowed) : unknown);
      }
    }
  }
  yield;

  const sides = {
    count,
    perp: perpOf,
    spot: spotOf,
    type: typeOf,
    perpSymbols: perpSides.map((perp) => perp.symbol),
    perpExchanges: perpSides.map((perp) => perp.snapshot.exchange),
    spotExchanges: spotSides.map((spot) => spot.spot.exchange),
  };
  const idOf = (p: number) => {
    const perp = perpSides[perpOf[p]!]!;
    return carryIdOfLegs(perp.symbol, CARRY_TYPES[typeOf[p]!]!, spotSides[spotOf[p]!]!.spot.exchange, perp.snapshot.exchange);
  };
  const order = yield* carryOrderSlices(aprs.subarray(0, count), sides, idOf, take);

  // Pass 2: every figure, in set order; each leg listed when its first item is written. In loops of
  // a few columns each, numbers only, as the perp ranking writes its rows (rank-opportunities.ts):
  // one loop of every column was too large for V8 to inline what it called, and each figure a call
  // answered, and each row's ISO text of its time, was a new object (45 MB a round at 118,000 items).
  const c = emptyCarryColumns(count, undefined, options.takeColumns);
  // Each time's text position, its ISO text made once.
  const timePositions = new Map<number, number>();
  const timeAt = (epochMs: number) => {
    let at = timePositions.get(epochMs);
    if (at === undefined) timePositions.set(epochMs, (at = texts.at(isoOf(epochMs))));
    return at;
  };
  const writeSides = (from: number, to: number) => {
    for (let r = from; r < to; r++) {
      const p = order[r]!;
      const perp = perpSides[perpOf[p]!]!;
      const spot = spotSides[spotOf[p]!]!;
      if (perp.leg < 0) {
        const { snapshot } = perp;
        perp.leg = perpLegs.push(toLeg({ snapshot, rate: snapshot.fundingRate!, intervalHours: snapshot.fundingIntervalHours!, key: marketKey(snapshot.exchange, snapshot.market) }, options.marketHistory, isoOf)) - 1;
        perpSymbols[perp.leg] = perp.symbol;
      }
      if (spot.leg < 0) spot.leg = spotLegs.at(servedSpotLeg(spot.spot));
      c.spot[r] = spot.leg;
      c.perp[r] = perp.leg;
      c.type[r] = typeOf[p]!;
      c.apr[r] = aprs[p]!;
      c.persistence[r] = persistenceOf[p]!;
      c.updated_at[r] = timeAt(Math.min(perp.snapshot.observedAt, spot.observedAt));
    }
  };
  const writeFigures = (from: number, to: number) => {
    for (let r = from; r < to; r++) {
      const p = order[r]!;
      const perp = perpSides[perpOf[p]!]!;
      const spot = spotSides[spotOf[p]!]!;
      const spotPerp = typeOf[p] === SPOT_PERP;
      const gross = spotPerp ? perp.fundingPct : perpSpotApr(perp.funding, spot.borrowPct);
      c.net_apr[r] = roundTo(netApr(gross, spot.takerFee, perp.takerFee, holdingDays), 6);
      c.borrow_apr[r] = spotPerp ? Number.NaN : roundTo(spot.borrowPct, 6);
      c.borrowable[r] = spotPerp ? Number.NaN : spot.borrowable;
    }
  };
  const writeBasis = (from: number, to: number) => {
    for (let r = from; r < to; r++) {
      const p = order[r]!;
      const perp = perpSides[perpOf[p]!]!;
      const spot = spotSides[spotOf[p]!]!;
      const perpPrice = perp.unitPrice;
      const perpAt = perp.snapshot.observedAt;
      const spotPrice = spot.spot.price;
      const spotAt = spot.observedAt;
      const unavailable = carryBasisUnavailable(perpPrice, perpAt, spotPrice, spotAt);
      c.basis_bps[r] = unavailable === null ? carryBasisBps(perpPrice, spotPrice) : Number.NaN;
      c.basis_reason[r] = unavailable === null ? NO_TEXT : texts.at(unavailable);
    }
  };
  for (let from = 0; from < count; from += SLICE_ITEMS) {
    const to = Math.min(count, from + SLICE_ITEMS);
    writeSides(from, to);
    writeFigures(from, to);
    writeBasis(from, to);
    if (to < count) yield;
  }
  return { ...c, spots: spotLegs.list, perps: perpLegs, perpSymbols, persistences: persistences.list, texts: texts.list };
}

const PERP_SPOT = CARRY_TYPES.indexOf("perp_spot");
const SPOT_PERP = CARRY_TYPES.indexOf("spot_perp");

function servedSpotLeg(spot: SpotLeg): CarrySpotLeg {
  return Object.freeze({
    exchange: spot.exchange,
    market: spot.market,
    quote: spot.quote,
    price: spot.price,
    volume_24h_usd: spot.volume24hUsd,
    taker_fee: spot.takerFee,
    observed_at: spot.observedAt,
  });
}

/**
 * Whether the perpetual's per-unit mark and the spot price differ by at most `bound` of their mean,
 * as the price bound measures perp legs (model/price-bound.ts). A perpetual without a mark cannot be
 * checked and is paired, as the bound keeps an unpriced perp leg.
 */
function withinBound(perpUnitPrice: number, spotPrice: number, bound: number): boolean {
  if (Number.isNaN(perpUnitPrice)) return true;
  return Math.abs(perpUnitPrice - spotPrice) / ((perpUnitPrice + spotPrice) / 2) <= bound;
}

/** Which of a venue's spot markets for one asset represents it: most traded, then USDT, then symbol. */
function preferredSpot(challenger: SpotLeg, holder: SpotLeg): boolean {
  const volume = (challenger.volume24hUsd ?? -1) - (holder.volume24hUsd ?? -1);
  if (volume !== 0) return volume > 0;
  const usdt = Number(challenger.quote === "USDT") - Number(holder.quote === "USDT");
  if (usdt !== 0) return usdt > 0;
  return compareText(challenger.market, holder.market) < 0;
}

/**
 * Whether a spot market is priced in dollars, as every perpetual is (USDT and USDC as dollars): a
 * spot price in euros or bitcoin (`BTC/EUR`, `ETH/BTC`) is in another unit, neither comparable
 * with the perpetual's mark nor sized in its notional.
 */
function isDollarQuote(quote: string): boolean {
  return USD_SETTLEMENTS.has(quote) || quote === "USD";
}

function venuesOf<T>(byAsset: Map<string, Map<string, T>>, asset: string): Map<string, T> {
  let venues = byAsset.get(asset);
  if (!venues) {
    venues = new Map();
    byAsset.set(asset, venues);
  }
  return venues;
}
