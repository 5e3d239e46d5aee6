import type { MarginTable } from "@/lib/market/books/margin-table";
import { midPrice, type OrderBook } from "@/lib/market/books/order-book";
import { roundTo } from "@/lib/round";
import { breakevenHours, fundingUsd, settlementsBetween, type FundingSchedule } from "./funding-horizon";
import { liquidationOf, liquidationPrice, tierFor } from "./liquidation";
import type { QuoteFee } from "@/lib/fees/quote-fee";
import { SLIPPAGE_BOUND_BPS, type QuoteFigures, type QuoteFill, type QuoteLeg } from "./quote-schema";
import { quantityWithin, sideQuantity, walkLevels, type Walk } from "./walk-book";

const HOUR_MS = 3_600_000;

export interface QuoteLegInput {
  side: "long" | "short";
  exchange: string;
  market: string;
  book: OrderBook;
  fee: QuoteFee;
  funding: FundingSchedule;
  margin: MarginTable;
}

export interface QuoteInput {
  /** USD per leg. */
  notionalUsd: number;
  holdHours: number;
  leverage: number;
  /** Epoch ms the quote is of: the holding period starts then. */
  at: number;
  long: QuoteLegInput;
  short: QuoteLegInput;
}

/**
 * Prices entering a pair now, holding it `holdHours` and leaving it, at `notionalUsd` a leg:
 *
 * - Size. Each leg holds the same dollars at its own book's mid: quantity = notional / mid (venue
 *   units). Entry buys the long leg from its asks and sells the short leg into its bids; exit does
 *   the reverse against the same books (the book of now is the only one known). When a book holds
 *   less than that on either side, both legs are sized down to what every one of the four fills
 *   can take (`filled_notional_usd`, `thin_book`), so the pair stays hedged, and every figure is of
 *   that size.
 * - Cost. Each fill's slippage is its average price against the mid (half the spread included) on
 *   its quantity, and its fee the leg's taker fee on the fill's value; entry and exit cost are the
 *   two legs' sums, `cost_bps` their total per filled notional.
 * - Funding. Each leg's settlements in the holding period, at its own interval
 *   (funding-horizon.ts), on the filled notional.
 * - Net. Funding − cost; `net_apr` = net / filled notional × 8760 / hold hours × 100;
 *   `breakeven_hours` the time until funding, settlement by settlement, covers the cost.
 * - Depth. Per leg the largest notional whose entry and exit stay within 10 bps of the mid.
 * - Risk. Per leg the liquidation price at `leverage` by its venue's rule (liquidation.ts), and the
 *   highest leverage its tier at entry allows.
 */
export function priceQuote(input: QuoteInput): QuoteFigures {
  const legs = [input.long, input.short].map((leg) => {
    const mid = midPrice(leg.book);
    return { leg, mid, fillableUsd: fillableUsd(leg, mid) };
  });
  const filled = Math.min(input.notionalUsd, ...legs.map((l) => l.fillableUsd));
  const to = input.at + input.holdHours * HOUR_MS;
  const [long, short] = legs.map(({ leg, mid, fillableUsd }) => priceLeg(leg, mid, fillableUsd, filled, input, to)) as [PricedLeg, PricedLeg];

  const entryCost = long.entryCost + short.entryCost;
  const exitCost = long.exitCost + short.exitCost;
  const cost = entryCost + exitCost;
  // From the legs' unrounded figures: rounding happens once, at the output.
  const funding = long.fundingUsd + short.fundingUsd;
  const net = funding - cost;
  const funded = [input.long, input.short].map((leg) => ({ side: leg.side, notionalUsd: filled, schedule: leg.funding }));
  const breakeven = breakevenHours(cost, funded, input.at);
  return {
    notional_usd: input.notionalUsd,
    filled_notional_usd: roundUsd(filled),
    thin_book: filled < input.notionalUsd,
    hold_hours: input.holdHours,
    leverage: input.leverage,
    long: long.view,
    short: short.view,
    entry_cost_usd: roundUsd(entryCost),
    exit_cost_usd: roundUsd(exitCost),
    cost_usd: roundUsd(cost),
    cost_bps: filled > 0 ? roundTo((cost / filled) * 10_000, 4) : null,
    funding_usd: roundUsd(funding),
    net_usd: roundUsd(net),
    net_apr: filled > 0 ? roundTo((net / filled) * (8_760 / input.holdHours) * 100, 6) : null,
    breakeven_hours: breakeven === null ? null : roundTo(breakeven, 4),
    max_notional_within_10bps_usd: Math.min(long.view.max_notional_within_10bps_usd, short.view.max_notional_within_10bps_usd),
  };
}

interface PricedLeg {
  view: QuoteLeg;
  entryCost: number;
  exitCost: number;
  fundingUsd: number;
}

/** Which side of the book a leg's entry and exit take: the long leg buys in, the short leg sells in. */
function sidesOf(leg: QuoteLegInput) {
  const buy = { side: "buy" as const, levels: leg.book.asks };
  const sell = { side: "sell" as const, levels: leg.book.bids };
  return leg.side === "long" ? { entry: buy, exit: sell } : { entry: sell, exit: buy };
}

/** The most a leg can be entered and exited at: the smaller side's depth, at the mid. */
export function fillableUsd(leg: Pick<QuoteLegInput, "book">, mid: number | null): number {
  if (mid === null) return 0;
  return Math.min(sideQuantity(leg.book.bids, leg.book.contractSize), sideQuantity(leg.book.asks, leg.book.contractSize)) * mid;
}

/**
 * One fill as the answer shows it: its slippage against the mid (half the spread included) in USD,
 * its taker fee at `feeRate` on its value, and its view.
 */
export function priceFill(side: "buy" | "sell", walk: Walk, mid: number | null, feeRate: number): { slippage: number; fee: number; view: QuoteFill } {
  const slippage = mid === null ? 0 : side === "buy" ? walk.value - walk.quantity * mid : walk.quantity * mid - walk.value;
  const average = walk.quantity > 0 ? walk.value / walk.quantity : null;
  return {
    slippage,
    fee: feeRate * walk.value,
    view: {
      side,
      quantity: significant(walk.quantity),
      average_price: average === null ? null : significant(average),
      slippage_bps: average === null || mid === null ? null : roundTo((slippage / (walk.quantity * mid)) * 10_000, 4),
      value_usd: roundUsd(walk.value),
      levels: walk.levels,
    },
  };
}

/**
 * One leg at `filledUsd`: its entry and exit fills, fees, funding from `input.at` to `to`, depth and
 * liquidation at `input.leverage`; `fillableUsd`, the leg's own depth, is shown beside them.
 */
export function priceLeg(
  leg: QuoteLegInput,
  mid: number | null,
  fillableUsd: number,
  filledUsd: number,
  input: Pick<QuoteInput, "at" | "leverage">,
  to: number,
): PricedLeg {
  const { entry, exit } = sidesOf(leg);
  const quantity = mid === null ? 0 : filledUsd / mid;
  const entryFill = priceFill(entry.side, walkLevels(entry.levels, leg.book.contractSize, quantity), mid, leg.fee.rate);
  const exitFill = priceFill(exit.side, walkLevels(exit.levels, leg.book.contractSize, quantity), mid, leg.fee.rate);

  const { settlements, assumed } = settlementsBetween(leg.funding, input.at, to);
  const funding = fundingUsd(leg.side, filledUsd, settlements);
  const within = withinBound(leg, mid);
  const entryPrice = entryFill.view.average_price ?? mid;
  return {
    entryCost: entryFill.fee + entryFill.slippage,
    exitCost: exitFill.fee + exitFill.slippage,
    fundingUsd: funding,
    view: {
      exchange: leg.exchange,
      market: leg.market,
      side: leg.side,
      depth_timestamp: new Date(leg.book.timestamp).toISOString(),
      depth_source: leg.book.source,
      mid_price: mid === null ? null : significant(mid),
      contract_size: leg.book.contractSize,
      fillable_notional_usd: roundUsd(fillableUsd),
      entry: entryFill.view,
      exit: exitFill.view,
      taker_fee: leg.fee.rate,
      taker_fee_source: leg.fee.source,
      fees_usd: roundUsd(entryFill.fee + exitFill.fee),
      slippage_usd: roundUsd(entryFill.slippage + exitFill.slippage),
      funding: {
        funding_rate: leg.funding.rate,
        predicted_funding_rate: leg.funding.predictedRate,
        interval_hours: leg.funding.intervalHours,
        settlements: settlements.length,
        first_settlement_at: settlements[0] ? new Date(settlements[0].at).toISOString() : null,
        schedule_assumed: assumed,
        funding_usd: roundUsd(funding),
      },
      max_notional_within_10bps_usd: roundUsd(within.notionalUsd),
      max_notional_limited_by_depth: within.wholeSide,
      liquidation: liquidation(leg, entryPrice, quantity, mid, input.leverage),
    },
  };
}

/** The leg's largest notional whose entry and exit both stay within SLIPPAGE_BOUND_BPS of the mid. */
function withinBound(leg: QuoteLegInput, mid: number | null): { notionalUsd: number; wholeSide: boolean } {
  if (mid === null) return { notionalUsd: 0, wholeSide: false };
  const { entry, exit } = sidesOf(leg);
  const [a, b] = [entry, exit].map((s) => quantityWithin(s.levels, leg.book.contractSize, s.side, mid, SLIPPAGE_BOUND_BPS)) as [
    ReturnType<typeof quantityWithin>,
    ReturnType<typeof quantityWithin>,
  ];
  const bound = a.quantity <= b.quantity ? a : b;
  return { notionalUsd: bound.quantity * mid, wholeSide: bound.wholeSide };
}

function liquidation(leg: QuoteLegInput, entryPrice: number | null, quantity: number, mid: number | null, leverage: number): QuoteLeg["liquidation"] {
  const none = { price: null, distance_pct: null, maintenance_margin_rate: null, max_leverage: null };
  const margin = leg.margin;
  // Without tiers, the market's maximum leverage (where the venue lists one) still bounds the leverage.
  if (!margin.available) return { ...none, max_leverage: margin.maxLeverage ?? null, source: null, unavailable_reason: margin.reason };
  if (entryPrice === null || mid === null) return { ...none, source: margin.source, unavailable_reason: "no_book" };
  const position = { side: leg.side, entryPrice, quantity, leverage };
  // The leverage a position may be opened at is its entry tier's; the maintenance, the venue's rule's.
  const entryTier = tierFor(margin, position);
  // A position of nothing sits in the first tier, whose deduction is 0: the price its size tends to.
  const liquidated =
    entryTier && quantity === 0
      ? { price: liquidationPrice({ ...position, quantity: 1 }, { ...entryTier, maintenanceAmount: 0 }), tier: entryTier }
      : liquidationOf(margin, position);
  if (!entryTier || !liquidated) return { ...none, max_leverage: entryTier?.maxLeverage ?? null, source: margin.source, unavailable_reason: "above_largest_tier" };
  const price = liquidated.price;
  return {
    price: price === null ? null : significant(price),
    distance_pct: price === null ? null : roundTo((Math.abs(price - mid) / mid) * 100, 4),
    maintenance_margin_rate: liquidated.tier.maintenanceMarginRate,
    max_leverage: entryTier.maxLeverage,
    source: margin.source,
    unavailable_reason: price === null ? "not_reachable" : null,
  };
}

/** Money to a millionth of a dollar, as the simulations round it. */
export function roundUsd(value: number): number {
  return roundTo(value, 6);
}

/** Prices and quantities to twelve significant digits: exact for any tick, whatever the asset's magnitude (PEPE at 1e-5). */
export function significant(value: number): number {
  return Number(value.toPrecision(12));
}
