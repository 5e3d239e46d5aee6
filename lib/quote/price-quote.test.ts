import { describe, expect, it } from "vitest";
import { marginUnavailable, withoutDeductions, type MarginTable } from "@/lib/market/books/margin-table";
import type { OrderBook } from "@/lib/market/books/order-book";
import { BINANCE_BTC_BRACKETS, quoteLadder } from "@/tests/support/market/margin-tables";
import { priceQuote, type QuoteInput } from "./price-quote";

const H = 3_600_000;
const AT = Date.parse("2026-11-24T07:00:00Z");

// Long leg: mid (99.9 + 100.1) / 2 = 100, counted in the coin.
const longBook: OrderBook = {
  bids: [[99.9, 100]],
  asks: [
    [100.1, 60],
    [100.3, 100],
  ],
  contractSize: 1,
  timestamp: AT - 500,
  source: "venue",
};
// Short leg: mid (100.4 + 100.6) / 2 = 100.5, counted in contracts of 0.1 (as OKX counts them):
// 50 units at 100.4 and 100 at 100.2 bid, 200 at 100.6 asked.
const shortBook: OrderBook = {
  bids: [
    [100.4, 500],
    [100.2, 1000],
  ],
  asks: [[100.6, 2000]],
  contractSize: 0.1,
  timestamp: AT - 800,
  source: "venue",
};
const binanceTiers = quoteLadder(BINANCE_BTC_BRACKETS.slice(0, 2));
const okxTiers: MarginTable = {
  available: true,
  source: "leverage_tiers",
  boundsIn: "base",
  tiers: withoutDeductions([{ floor: 0, cap: 1_000, maintenanceMarginRate: 0.005, maxLeverage: 50 }]),
};

function input(overrides: Partial<QuoteInput> = {}): QuoteInput {
  return {
    notionalUsd: 10_000,
    holdHours: 24,
    leverage: 3,
    at: AT,
    long: {
      side: "long",
      exchange: "binance",
      market: "X/USDT:USDT",
      book: longBook,
      fee: { rate: 0.0005, source: "venue_base_tier" },
      funding: { rate: 0.0001, predictedRate: null, intervalHours: 8, nextFundingAt: AT + H },
      margin: binanceTiers,
    },
    short: {
      side: "short",
      exchange: "okx",
      market: "X/USDT:USDT",
      book: shortBook,
      fee: { rate: 0.0005, source: "venue_base_tier" },
      funding: { rate: 0.0003, predictedRate: 0.0002, intervalHours: 8, nextFundingAt: AT + H },
      margin: okxTiers,
    },
    ...overrides,
  };
}

describe("priceQuote", () => {
  const quote = priceQuote(input());

  it("walks the long leg's asks in and its bids out", () => {
    // 10,000 / 100 = 100 units. In: 60 @ 100.1 + 40 @ 100.3 = 6,006 + 4,012 = 10,018, average 100.18,
    // 18 USD over the mid (100 × 100) = 18 bps. Out: 100 @ 99.9 = 9,990, 10 under = 10 bps.
    expect(quote.long.entry).toEqual({ side: "buy", quantity: 100, average_price: 100.18, slippage_bps: 18, value_usd: 10_018, levels: 2 });
    expect(quote.long.exit).toEqual({ side: "sell", quantity: 100, average_price: 99.9, slippage_bps: 10, value_usd: 9_990, levels: 1 });
    // Fees 0.05 % of 10,018 + 9,990 = 10.004; slippage 18 + 10.
    expect(quote.long.fees_usd).toBe(10.004);
    expect(quote.long.slippage_usd).toBe(28);
    expect(quote.long.mid_price).toBe(100);
    expect(quote.long.depth_timestamp).toBe("2026-11-24T06:59:59.500Z");
  });

  it("walks the short leg's bids in and its asks out, counting contracts of 0.1", () => {
    // 10,000 / 100.5 = 99.502488 units. In: 50 @ 100.4 = 5,020, then 49.502488 @ 100.2 = 4,960.149254:
    // 9,980.149254, average 100.3005, 19.850746 under the mid's 10,000 = 19.850746 bps.
    expect(quote.short.entry.side).toBe("sell");
    expect(quote.short.entry.quantity).toBeCloseTo(99.502488, 6);
    expect(quote.short.entry.average_price).toBeCloseTo(100.3005, 9);
    expect(quote.short.entry.value_usd).toBeCloseTo(9_980.149254, 6);
    expect(quote.short.entry.slippage_bps).toBe(19.8507);
    // Out: 99.502488 @ 100.6 = 10,009.950249, 9.950249 over = 9.9502 bps.
    expect(quote.short.exit.value_usd).toBeCloseTo(10_009.950249, 6);
    expect(quote.short.exit.slippage_bps).toBe(9.9502);
    // Fees 0.05 % of 9,980.149254 + 10,009.950249 = 9.99505.
    expect(quote.short.fees_usd).toBeCloseTo(9.99505, 6);
    expect(quote.short.contract_size).toBe(0.1);
  });

  it("adds the fills into entry, exit and total costs", () => {
    // Entry: long 5.009 + 18, short 4.990075 + 19.850746 = 47.849821.
    // Exit: long 4.995 + 10, short 5.004975 + 9.950249 = 29.950224. Total 77.800045, 77.8 bps of 10,000.
    expect(quote.entry_cost_usd).toBeCloseTo(47.849821, 6);
    expect(quote.exit_cost_usd).toBeCloseTo(29.950224, 6);
    expect(quote.cost_usd).toBeCloseTo(77.800045, 6);
    expect(quote.cost_bps).toBe(77.8);
  });

  it("expects each leg's settlements in the period, at its interval, and nets them against the costs", () => {
    // Both settle at 1h, 9h and 17h. Long pays 3 × 0.0001 × 10,000 = 3; short earns
    // (0.0003 + 2 × 0.0002 forecast) × 10,000 = 7. Funding 4, net 4 − 77.800045 = −73.800045,
    // net APR −73.800045 / 10,000 × 8,760 / 24 × 100 = −269.370163 %.
    expect(quote.long.funding).toMatchObject({ settlements: 3, first_settlement_at: "2026-11-24T08:00:00.000Z", funding_usd: -3, schedule_assumed: false });
    expect(quote.short.funding.funding_usd).toBeCloseTo(7, 9);
    expect(quote.funding_usd).toBe(4);
    expect(quote.net_usd).toBeCloseTo(-73.800045, 6);
    expect(quote.net_apr).toBeCloseTo(-269.370163, 5);
    // Funding pays +2 at 1h, then +1 every 8 hours: 2 + 76 ≥ 77.8 after 76 more, at 1 + 76 × 8 = 609 h.
    expect(quote.breakeven_hours).toBe(609);
  });

  it("sums the pair's funding, net and net APR from unrounded leg figures, rounding only the output", () => {
    // Each leg settles once in the hour. Per unit of the long leg (mid 100): 0.1 slippage in and out,
    // fees 0.05 % of 100.1 + 99.9 = 0.1, so 0.3; per unit of the short leg (mid 100.5): 0.1 + 0.1 +
    // 0.05 % of 100.4 + 100.6 = 0.3005. Exactly, as an independent calculator works it out:
    const n = 100.123457;
    const [longRate, shortRate] = [0.000123457, 0.000333333];
    const funding = (shortRate - longRate) * n;
    const net = funding - (0.3 * n) / 100 - (0.3005 * n) / 100.5;
    const priced = priceQuote(
      input({
        notionalUsd: n,
        holdHours: 1,
        long: { ...input().long, funding: { rate: longRate, predictedRate: null, intervalHours: 8, nextFundingAt: AT + H } },
        short: { ...input().short, funding: { rate: shortRate, predictedRate: null, intervalHours: 8, nextFundingAt: AT + H } },
      }),
    );
    // Legs rounded first (−0.012361 + 0.033374) would give net APR −5063.436674, 0.0045 points off.
    expect(priced.funding_usd).toBe(Number(funding.toFixed(6)));
    expect(priced.net_usd).toBe(Number(net.toFixed(6)));
    expect(Math.abs(priced.net_apr! - (net / n) * 8_760 * 100)).toBeLessThan(5e-7);
  });

  it("finds the largest notional within 10 bps per leg", () => {
    // Long: asks up to 100.1 whole (60 units), the 100.3s add nothing more; bids all at 99.9 (100 units,
    // the whole side): 60 × 100 = 6,000. Short: bids down to 100.3995: 50 @ 100.4, then
    // (100.3995 × 50 − 5,020) / (100.2 − 100.3995) = 0.125313 of the 100.2s: 50.125313 × 100.5 = 5,037.593985.
    expect(quote.long.max_notional_within_10bps_usd).toBeCloseTo(6_000, 6);
    expect(quote.long.max_notional_limited_by_depth).toBe(false);
    expect(quote.short.max_notional_within_10bps_usd).toBeCloseTo(5_037.593985, 6);
    expect(quote.max_notional_within_10bps_usd).toBeCloseTo(5_037.593985, 6);
  });

  it("liquidates each leg at the leverage from its tier at entry", () => {
    // Long: 100 units at 100.18 = 10,018 in Binance's first bracket (0.4 %):
    // 100.18 × (1 − 1/3) / 0.996 = 67.054886, 32.9451 % under the mid of 100.
    expect(quote.long.liquidation).toEqual({
      price: 67.0548862115,
      distance_pct: 32.9451,
      maintenance_margin_rate: 0.004,
      max_leverage: 125,
      source: "leverage_tiers",
      unavailable_reason: null,
    });
    // Short: 99.5 units (under OKX's 1,000 cap) at 100.3005: 100.3005 × (1 + 1/3) / 1.005 = 133.068657,
    // 32.4066 % over the mid of 100.5.
    expect(quote.short.liquidation.price).toBeCloseTo(133.068657, 6);
    expect(quote.short.liquidation.distance_pct).toBe(32.4066);
  });

  it("liquidates a long in the bracket of its notional at the liquidation price, as Binance does", () => {
    // Brackets at 5,000 (0.4 %, 125x) and to 600,000 (0.5 %, 100x, cum 5). 100 units at 100.18 =
    // 10,018 is the second bracket at entry; at 1.5x there (100.18 / 3 − 5 / 100) / 0.995 = 33.511390,
    // a notional of 3,351: the first bracket's, where 100.18 / 3 / 0.996 = 33.527443 (notional 3,353).
    const brackets = quoteLadder([
      { floor: 0, cap: 5_000, maintenanceMarginRate: 0.004, maxLeverage: 125 },
      { floor: 5_000, cap: 600_000, maintenanceMarginRate: 0.005, maxLeverage: 100 },
    ]);
    const priced = priceQuote(input({ leverage: 1.5, long: { ...input().long, margin: brackets } }));
    expect(priced.long.liquidation.price).toBeCloseTo(33.527443, 6);
    // The maintenance is the first bracket's; the leverage allowed is the entry bracket's.
    expect(priced.long.liquidation).toMatchObject({ maintenance_margin_rate: 0.004, max_leverage: 100 });
  });

  it("liquidates a leg on a venue that takes maintenance on the entry value (Bybit) by that rule", () => {
    // 100 units at 100.18 = 10,018 at 3x, MMR 0.5 %: 100.18 − (3,339.33 − 50.09) / 100 = 100.18 × (1 − 1/3 + 0.005) = 67.287567.
    const bybit = quoteLadder([{ floor: 0, cap: 2_000_000, maintenanceMarginRate: 0.005, maxLeverage: 100 }], { maintenanceOn: "entry" });
    const priced = priceQuote(input({ long: { ...input().long, margin: bybit } }));
    expect(priced.long.liquidation.price).toBeCloseTo(67.287567, 6);
  });

  it("bounds the leverage of a leg without tiers by the market's maximum leverage", () => {
    const priced = priceQuote(input({ long: { ...input().long, margin: marginUnavailable("not_published", "signed only", 20) } }));
    expect(priced.long.liquidation).toMatchObject({ price: null, max_leverage: 20, unavailable_reason: "not_published" });
  });

  it("sizes both legs down to what every fill can take when a book is thin, and says so", () => {
    // The long leg's bids hold 100 units, 10,000 at its mid: twice that cannot be left again.
    const thin = priceQuote(input({ notionalUsd: 20_000 }));
    expect(thin.thin_book).toBe(true);
    expect(thin.notional_usd).toBe(20_000);
    expect(thin.filled_notional_usd).toBe(10_000);
    expect(thin.long.fillable_notional_usd).toBe(10_000);
    // The short leg could take 150 units × 100.5 = 15,075, but is sized down with the long one.
    expect(thin.short.fillable_notional_usd).toBe(15_075);
    expect(thin.short.entry.quantity).toBeCloseTo(99.502488, 6);
    expect(thin.cost_usd).toBeCloseTo(quote.cost_usd, 6);
    expect(priceQuote(input({ notionalUsd: 10_000 })).thin_book).toBe(false);
  });

  it("answers a leg without tiers with a null price and the reason", () => {
    const priced = priceQuote(input({ long: { ...input().long, margin: marginUnavailable("not_published", "signed only") } }));
    expect(priced.long.liquidation).toEqual({
      price: null,
      distance_pct: null,
      maintenance_margin_rate: null,
      max_leverage: null,
      source: null,
      unavailable_reason: "not_published",
    });
  });

  it("says when a long cannot be liquidated at this leverage", () => {
    expect(priceQuote(input({ leverage: 1 })).long.liquidation).toMatchObject({ price: null, unavailable_reason: "not_reachable", maintenance_margin_rate: 0.004 });
  });

  it("fills nothing from an empty side, without failing", () => {
    const empty = priceQuote(input({ long: { ...input().long, book: { ...longBook, bids: [] } } }));
    expect(empty).toMatchObject({ filled_notional_usd: 0, thin_book: true, cost_bps: null, net_apr: null, cost_usd: 0 });
    expect(empty.long.entry).toMatchObject({ quantity: 0, average_price: null, slippage_bps: null });
    expect(empty.long.mid_price).toBeNull();
    expect(empty.long.liquidation.unavailable_reason).toBe("no_book");
  });
});
