import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { OrderBook } from "@/lib/market/books/order-book";
import { BINANCE_BTC_BRACKETS, quoteLadder } from "@/tests/support/market/margin-tables";
import { carryQuoteFiguresSchema } from "./carry-quote-schema";
import { quoteCarry, type CarryQuoteInput } from "./carry-quote";
import { liquidationOf } from "./liquidation";

const H = 3_600_000;
const AT = Date.parse("2026-11-24T07:00:00Z");

// Spot: mid (99.9 + 100.1) / 2 = 100, two levels a side.
const spotBook: OrderBook = {
  bids: [
    [99.9, 60],
    [99.7, 100],
  ],
  asks: [
    [100.1, 60],
    [100.3, 100],
  ],
  contractSize: 1,
  timestamp: AT - 500,
  source: "venue",
};
// Perpetual: mid (100.4 + 100.6) / 2 = 100.5.
const perpBook: OrderBook = {
  bids: [
    [100.4, 50],
    [100.2, 100],
  ],
  asks: [[100.6, 200]],
  contractSize: 1,
  timestamp: AT - 800,
  source: "venue",
};
const tiers = quoteLadder(BINANCE_BTC_BRACKETS.slice(0, 2));
const borrow = { asset: "X", rate: 0.0001, period: "day" as const, borrowable: null, source: "test", observedAt: "2026-11-24T06:59:00Z" };

function input(overrides: Partial<CarryQuoteInput> = {}, rate = 0.0001): CarryQuoteInput {
  return {
    type: "spot_perp",
    notionalUsd: 10_000,
    holdHours: 72,
    leverage: 3,
    at: AT,
    spot: { leg: { exchange: "binance", market: "X/USDT", base: "X", takerFee: 0.001, borrow }, book: spotBook },
    perp: {
      exchange: "bybit",
      market: "X/USDT:USDT",
      book: perpBook,
      fee: { rate: 0.0005, source: "venue_base_tier" },
      // 0.01 % every 8 h from 1 h after AT: over 72 h, 1 h, 9 h, …, 65 h = 9 settlements.
      funding: { rate, predictedRate: null, intervalHours: 8, nextFundingAt: AT + H },
      margin: tiers,
    },
    ...overrides,
  };
}

// The perpetual's fills at 10,000 (99.502488 units): selling into its bids 50 @ 100.4 + 49.502488 @ 100.2
// = 9,980.149254 (19.850746 under the mid), buying from its asks 99.502488 @ 100.6 = 10,009.950249
// (9.950249 over); fees 0.05 %: 4.990075 and 5.004975.
describe("quoteCarry: spot_perp", () => {
  const quote = quoteCarry(input());

  it("buys spot from the asks and sells it into the bids, at the spot fee", () => {
    // 100 units. In: 60 @ 100.1 + 40 @ 100.3 = 10,018 (18 over the mid); out: 60 @ 99.9 + 40 @ 99.7 = 9,982 (18 under).
    // Fees 0.1 % of 10,018 + 9,982 = 20.
    expect(quote.spot.entry).toEqual({ side: "buy", quantity: 100, average_price: 100.18, slippage_bps: 18, value_usd: 10_018, levels: 2 });
    expect(quote.spot.exit).toEqual({ side: "sell", quantity: 100, average_price: 99.82, slippage_bps: 18, value_usd: 9_982, levels: 2 });
    expect(quote.spot).toMatchObject({ side: "long", mid_price: 100, taker_fee: 0.001, taker_fee_source: "venue_base_tier", fees_usd: 20, slippage_usd: 36, borrow: null });
    expect(quote.perp.side).toBe("short");
    expect(quote.perp.entry.value_usd).toBeCloseTo(9_980.149254, 6);
    expect(quote.perp.exit.value_usd).toBeCloseTo(10_009.950249, 6);
  });

  it("earns the short's funding and nets it against both legs' costs", () => {
    // Funding 9 × 0.0001 × 10,000 = 9. Entry: spot 10.018 + 18, perp 4.990075 + 19.850746 = 52.858821;
    // exit: spot 9.982 + 18, perp 5.004975 + 9.950249 = 42.937224; cost 95.796045 (95.796 bps).
    // Net 9 − 95.796045 = −86.796045; APR −86.796045 / 10,000 × 8,760 / 72 × 100 = −105.601854 %.
    expect(quote.perp.funding).toMatchObject({ settlements: 9, funding_usd: 9 });
    expect(quote.funding_usd).toBe(9);
    expect(quote.borrow_usd).toBe(0);
    expect(quote.entry_cost_usd).toBeCloseTo(52.858821, 6);
    expect(quote.exit_cost_usd).toBeCloseTo(42.937224, 6);
    expect(quote.cost_bps).toBeCloseTo(95.796, 4);
    expect(quote.net_usd).toBeCloseTo(-86.796045, 6);
    expect(quote.net_apr).toBeCloseTo(-105.601854, 5);
    expect(quote).toMatchObject({ filled_notional_usd: 10_000, thin_book: false, borrow_capped: false });
  });

  it("gives spot no liquidation and the perpetual liquidation.ts' price at the leverage", () => {
    expect(quote.spot.liquidation).toBeNull();
    expect(quote.spot.liquidation_unavailable_reason).toBe("spot_not_liquidated");
    const position = { side: "short" as const, entryPrice: 9_980.149253731344 / (10_000 / 100.5), quantity: 10_000 / 100.5, leverage: 3 };
    const price = liquidationOf(tiers, position)!.price!;
    expect(quote.perp.liquidation.price).toBeCloseTo(price, 8);
    expect(quote.perp.liquidation.distance_pct).toBeCloseTo((Math.abs(price - 100.5) / 100.5) * 100, 4);
    // Short at 3x in the first bracket (no deduction): X = P(1 + 1/3) / 1.004, P = 100.3005: 133.201195,
    // 32.5385 % above the mid 100.5.
    expect(quote.perp.liquidation.distance_pct).toBe(32.5385);
  });

  it("charges DEFAULT_TAKER_FEE where the venue states no spot fee", () => {
    const spot = { leg: { ...input().spot.leg, takerFee: null }, book: spotBook };
    // 0.06 % of 10,018 + 9,982 = 12.
    expect(quoteCarry(input({ spot })).spot).toMatchObject({ taker_fee: 0.0006, taker_fee_source: "default", fees_usd: 12 });
  });

  it("sizes both legs down to a thin spot book, as a pair quote does", () => {
    // The spot book holds 160 units a side: 16,000 at the mid 100; the perpetual 150 × 100.5 = 15,075 bid.
    const thin = quoteCarry(input({ notionalUsd: 20_000 }));
    expect(thin).toMatchObject({ filled_notional_usd: 15_075, thin_book: true, borrow_capped: false });
    expect(thin.spot.fillable_notional_usd).toBe(16_000);
    expect(thin.perp.funding.funding_usd).toBeCloseTo(9 * 0.0001 * 15_075, 9);
  });

  it("answers in the published shape", () => {
    expect(carryQuoteFiguresSchema.parse(quote)).toEqual(quote);
  });
});

describe("quoteCarry: perp_spot", () => {
  // Funding −0.01 % every 8 h: the long receives 9 × 0.0001 × 10,000 = 9.
  const quote = quoteCarry(input({ type: "perp_spot" }, -0.0001));

  it("sells the borrowed base into the spot bids, buys it back from the asks, and longs the perpetual", () => {
    expect(quote.spot.side).toBe("short");
    expect(quote.spot.entry).toMatchObject({ side: "sell", quantity: 100, value_usd: 9_982 });
    expect(quote.spot.exit).toMatchObject({ side: "buy", quantity: 100, value_usd: 10_018 });
    expect(quote.perp.side).toBe("long");
    expect(quote.perp.entry.value_usd).toBeCloseTo(10_009.950249, 6);
  });

  it("pays the borrow rate over the period on the quantity sold", () => {
    // 0.0001 a day = 3.65 % a year; over 72 h on 100 units at the mid 100: 10,000 × 0.0001 × 3 = 3.
    expect(quote.spot.borrow).toEqual({ rate: 0.0001, period: "day", borrow_apr: 3.65, borrowable: null, quantity: 100, borrow_usd: 3 });
    expect(quote.borrow_usd).toBe(3);
    // Costs as spot_perp's, entry and exit swapped: 42.937224 in, 52.858821 out, 95.796045.
    // Net 9 − 3 − 95.796045 = −89.796045; APR × 8,760 / 72 / 100 = −109.251854 %.
    expect(quote.funding_usd).toBe(9);
    expect(quote.entry_cost_usd).toBeCloseTo(42.937224, 6);
    expect(quote.net_usd).toBeCloseTo(-89.796045, 6);
    expect(quote.net_apr).toBeCloseTo(-109.251854, 5);
    expect(carryQuoteFiguresSchema.parse(quote)).toEqual(quote);
  });

  it("sizes both legs down to the borrowable base, and says so", () => {
    // 50 units lent at the mid 100: 5,000 a leg. Borrow 5,000 × 0.0003 = 1.5, funding 4.5.
    const capped = quoteCarry(input({ type: "perp_spot", spot: { leg: { ...input().spot.leg, borrow: { ...borrow, borrowable: 50 } }, book: spotBook } }, -0.0001));
    expect(capped).toMatchObject({ filled_notional_usd: 5_000, borrow_capped: true, thin_book: false, borrow_usd: 1.5, funding_usd: 4.5 });
    expect(capped.spot.borrow).toMatchObject({ borrowable: 50, quantity: 50 });
    expect(capped.spot.entry).toMatchObject({ quantity: 50, value_usd: 4_995 });
    // Perpetual 5,000 / 100.5 = 49.751244 units.
    expect(capped.perp.entry.quantity).toBeCloseTo(49.751244, 6);
  });

  it("is not capped by a borrowable base larger than the size", () => {
    const roomy = quoteCarry(input({ type: "perp_spot", spot: { leg: { ...input().spot.leg, borrow: { ...borrow, borrowable: 1_000 } }, book: spotBook } }));
    expect(roomy).toMatchObject({ filled_notional_usd: 10_000, borrow_capped: false });
  });

  it("refuses a spot leg without a borrow rate", () => {
    const spot = { leg: { ...input().spot.leg, borrow: null }, book: spotBook };
    const attempt = () => quoteCarry(input({ type: "perp_spot", spot }));
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(/binance states no margin borrow rate for X/);
    // Nor does a rate for another asset stand in for the base's.
    const otherAsset = { leg: { ...input().spot.leg, borrow: { ...borrow, asset: "USDT" } }, book: spotBook };
    expect(() => quoteCarry(input({ type: "perp_spot", spot: otherAsset }))).toThrow(/perp_spot borrows the base/);
    // The same leg is fine for spot_perp, which borrows nothing.
    expect(quoteCarry(input({ spot })).borrow_usd).toBe(0);
  });
});
