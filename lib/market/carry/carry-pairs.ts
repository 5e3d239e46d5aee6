import { roundTo } from "@/lib/round";
import { assertHoldingDays, DEFAULT_HOLDING_DAYS, DEFAULT_TAKER_FEE, netApr } from "../model/apr";
import { isoTexts } from "../model/iso-texts";
import { marketKey } from "../model/market-average";
import { pairingKey } from "../model/underlying-class";
import { UNKNOWN_PERSISTENCE, type MarketSnapshot, type OpportunityLeg, type Persistence } from "../model/types";
import { borrowedSpot } from "../persistence/borrowed-spot";
import { HELD_SPOT } from "../persistence/held-spot";
import type { MarketRef } from "../persistence/persistence-set";
import { compareText, preferred, toLeg, unitPrice } from "../opportunities/rank-opportunities";
import { rankedBefore } from "../opportunities/splice-opportunities";
import { USD_SETTLEMENTS } from "../venues/connectors/build-snapshot";
import { carryBasis, perpSpotApr, spotPerpApr, spotTakerFee } from "./carry-apr";
import { carryOpportunityId } from "./carry-id";
import type { CarryOpportunity, CarrySpotLeg, CarryType } from "./carry-opportunity";
import { annualisedBorrowPct, type BorrowRate, type SpotLeg } from "./spot-leg";

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

  const isoOf = isoTexts();
  const items: CarryOpportunity[] = [];
  for (const [asset, spotVenues] of spotsByAsset) {
    const perpVenues = perpsByAsset.get(asset);
    if (!perpVenues) continue;
    const spotLegs = [...spotVenues.values()].map((spot) => ({ spot, leg: servedSpotLeg(spot), observedAt: Date.parse(spot.observedAt) }));
    for (const snapshot of perpVenues.values()) {
      const perp: PerpSide = {
        snapshot,
        leg: toLeg({ snapshot, rate: snapshot.fundingRate!, intervalHours: snapshot.fundingIntervalHours!, key: marketKey(snapshot.exchange, snapshot.market) }, undefined, isoOf),
        unitPrice: unitPrice(snapshot),
      };
      const heldPersistence = options.persistence?.(HELD_SPOT, snapshot) ?? UNKNOWN_PERSISTENCE;
      for (const spot of spotLegs) {
        if (options.priceBound !== undefined && !withinBound(perp.unitPrice, spot.spot.price, options.priceBound)) continue;
        items.push(carryItem("spot_perp", perp, spot, null, holdingDays, isoOf, heldPersistence));
        const borrow = spot.spot.borrow;
        if (borrow !== null && borrow.asset === spot.spot.base) items.push(carryItem("perp_spot", perp, spot, borrow, holdingDays, isoOf, options.persistence?.(snapshot, borrowedSpot(spot.spot.exchange, borrow.asset)) ?? UNKNOWN_PERSISTENCE));
      }
    }
  }
  return items.sort((a, b) => (a === b ? 0 : rankedBefore(a.apr, a.id, b.apr, b.id) ? -1 : 1));
}

interface PerpSide {
  snapshot: MarketSnapshot;
  leg: OpportunityLeg;
  /** Mark per unit of the asset (the venue's mark over its bundle size); NaN without a mark. */
  unitPrice: number;
}

interface SpotSide {
  spot: SpotLeg;
  leg: CarrySpotLeg;
  observedAt: number;
}

/** One opportunity; `borrow` is the spot venue's rate for the asset, given for `perp_spot` only. */
function carryItem(
  type: CarryType,
  perp: PerpSide,
  spot: SpotSide,
  borrow: BorrowRate | null,
  holdingDays: number,
  isoOf: (epochMs: number) => string,
  persistence: Persistence,
): CarryOpportunity {
  const { snapshot } = perp;
  const funding = { rate: snapshot.fundingRate!, intervalHours: snapshot.fundingIntervalHours! };
  const borrowApr = borrow === null ? null : annualisedBorrowPct(borrow.rate, borrow.period);
  const gross = borrowApr === null ? spotPerpApr(funding) : perpSpotApr(funding, borrowApr);
  const net = netApr(gross, spotTakerFee(spot.spot), snapshot.takerFee ?? DEFAULT_TAKER_FEE, holdingDays);
  const [long, short] = type === "spot_perp" ? [spot.spot.exchange, snapshot.exchange] : [snapshot.exchange, spot.spot.exchange];
  const basis = carryBasis(
    { unitPrice: Number.isNaN(perp.unitPrice) ? null : perp.unitPrice, observedAt: snapshot.observedAt },
    { unitPrice: spot.spot.price, observedAt: spot.observedAt },
  );
  return {
    id: carryOpportunityId(snapshot.base, type, long, short),
    symbol: snapshot.base,
    type,
    spot: spot.leg,
    perp: perp.leg,
    apr: roundTo(gross, 6),
    net_apr: roundTo(net, 6),
    borrow_apr: borrowApr === null ? null : roundTo(borrowApr, 6),
    borrowable: borrow === null ? null : borrow.borrowable,
    ...basis,
    updated_at: isoOf(Math.min(snapshot.observedAt, spot.observedAt)),
    persistence,
  };
}

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
