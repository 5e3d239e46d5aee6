import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { dailyBorrow, makeSpot } from "@/tests/support/market/make-spot";
import { computeOpportunities } from "../opportunities/rank-opportunities";
import { UNKNOWN_PERSISTENCE, type Persistence } from "../model/types";
import { borrowedSpot } from "../persistence/borrowed-spot";
import { HELD_SPOT } from "../persistence/held-spot";
import type { MarketRef } from "../persistence/persistence-set";
import { carryOpportunitySchema } from "./carry-opportunity";
import { carryItemsOf } from "./carry-columns";
import { rankCarryColumns, rankCarryOpportunities } from "./carry-pairs";
import { ScratchArrays } from "../opportunities/encoding/scratch-arrays";
import { marketKey } from "../model/market-average";

const observedAt = Date.UTC(2026, 8, 27, 13, 30);
const observedIso = new Date(observedAt).toISOString();

/** Borrowing BTC at 0.01 % a day (3.65 % a year), 50 BTC lendable. */
const btcBorrow = dailyBorrow();

describe("rankCarryOpportunities", () => {
  it("prices both sides of one venue's spot and perpetual (worked example)", () => {
    // Perp: 0.01 % per 8 h (10.95 % a year), taker 0.05 %, mark 100.1. Spot: 100, taker 0.1 %, borrow 3.65 % a year.
    // Fees of four fills over 7 days: 2 × (0.001 + 0.0005) × 365 / 7 × 100 = 15.642857 % a year.
    const perp = makeSnapshot({ exchange: "binance", fundingRate: 0.0001, fundingIntervalHours: 8, markPrice: 100.1, takerFee: 0.0005, observedAt });
    const items = rankCarryOpportunities([perp], [makeSpot({ exchange: "binance", borrow: btcBorrow })]);
    for (const item of items) expect(carryOpportunitySchema.parse(item)).toEqual(item);
    // The perpetual's leg is the one perp pairs serve for that market.
    const pair = computeOpportunities([perp, makeSnapshot({ exchange: "okx", observedAt })]).opportunities[0]!;
    const binanceLeg = [pair.long, pair.short].find((leg) => leg.exchange === "binance");
    expect(items.map(({ perp: leg }) => leg)).toEqual([binanceLeg, binanceLeg]);
    const common = {
      symbol: "BTC",
      spot: { exchange: "binance", market: "BTC/USDT", quote: "USDT", price: 100, volume_24h_usd: 1_000_000, taker_fee: 0.001, observed_at: observedIso },
      // (100.1 − 100) / 100 = 10 bps, observed together.
      basis_bps: 10,
      basis_unavailable_reason: null,
      updated_at: observedIso,
      persistence: UNKNOWN_PERSISTENCE,
    };
    expect(items).toEqual([
      {
        ...common,
        id: "BTC-spot_perp-binance-binance",
        type: "spot_perp",
        perp: expect.objectContaining({ exchange: "binance", funding_rate: 0.0001, mark_price: 100.1 }),
        // 10.95, and 10.95 − 15.642857 = −4.692857.
        apr: 10.95,
        net_apr: -4.692857,
        borrow_apr: null,
        borrowable: null,
      },
      {
        ...common,
        id: "BTC-perp_spot-binance-binance",
        type: "perp_spot",
        perp: expect.objectContaining({ exchange: "binance" }),
        // −10.95 − 3.65 = −14.6, and −14.6 − 15.642857 = −30.242857.
        apr: -14.6,
        net_apr: -30.242857,
        borrow_apr: 3.65,
        borrowable: 50,
      },
    ]);
  });

  it("ranks perp_spot first when funding is negative, and spot_perp pays it", () => {
    // −0.03 % per 8 h: −32.85 % a year. perp_spot: 32.85 − 3.65 = 29.2, net 29.2 − 15.642857 = 13.557143.
    const items = rankCarryOpportunities(
      [makeSnapshot({ exchange: "bybit", fundingRate: -0.0003, takerFee: 0.0005, observedAt })],
      [makeSpot({ exchange: "okx", borrow: btcBorrow })],
    );
    expect(items.map(({ id, apr, net_apr }) => ({ id, apr, net_apr }))).toEqual([
      { id: "BTC-perp_spot-bybit-okx", apr: 29.2, net_apr: 13.557143 },
      // −32.85 − 15.642857 = −48.492857.
      { id: "BTC-spot_perp-okx-bybit", apr: -32.85, net_apr: -48.492857 },
    ]);
  });

  it("forms no perp_spot where the spot venue lends nothing, or lends another asset", () => {
    const perp = makeSnapshot({ exchange: "bybit", observedAt });
    const noMargin = rankCarryOpportunities([perp], [makeSpot({ exchange: "binance" })]);
    expect(noMargin.map(({ type }) => type)).toEqual(["spot_perp"]);
    const otherAsset = rankCarryOpportunities([perp], [makeSpot({ exchange: "binance", borrow: { ...btcBorrow, asset: "ETH" } })]);
    expect(otherAsset.map(({ type }) => type)).toEqual(["spot_perp"]);
  });

  it("charges a spot leg without a stated fee, and a perpetual without one, the default taker fee", () => {
    // 2 × (0.0006 + 0.0006) × 365 / 7 × 100 = 12.514286 % a year: 10.95 − 12.514286 = −1.564286.
    const [item] = rankCarryOpportunities([makeSnapshot({ exchange: "bybit", takerFee: null, observedAt })], [makeSpot({ exchange: "binance", takerFee: null })]);
    expect(item!.spot.taker_fee).toBeNull();
    expect(item!.net_apr).toBe(-1.564286);
  });

  it("spreads the fees over the holding period asked for", () => {
    // 0.3 % of fees over 30 days: 0.003 × 365 / 30 × 100 = 3.65 % a year; 10.95 − 3.65 = 7.3.
    const [item] = rankCarryOpportunities([makeSnapshot({ exchange: "bybit", takerFee: 0.0005, observedAt })], [makeSpot({ exchange: "binance" })], {
      holdingDays: 30,
    });
    expect(item!.net_apr).toBe(7.3);
    expect(() => rankCarryOpportunities([], [], { holdingDays: 0 })).toThrow(RangeError);
  });

  it("pairs only prices within the bound, per unit of the asset", () => {
    const spot = makeSpot({ exchange: "binance" });
    // 106 against 100: 6 / 103 = 5.8 % of their mean, beyond a 5 % bound; 104: 4 / 102 = 3.9 %, within.
    const far = makeSnapshot({ exchange: "bybit", markPrice: 106, observedAt });
    const near = makeSnapshot({ exchange: "okx", markPrice: 104, observedAt });
    expect(rankCarryOpportunities([far, near], [spot], { priceBound: 0.05 }).map(({ id }) => id)).toEqual(["BTC-spot_perp-binance-okx"]);
    // Without a bound nothing is held to a price, as perp pairs are not.
    expect(rankCarryOpportunities([far, near], [spot])).toHaveLength(2);
    // A 1000PEPE perpetual at 0.0121 per 1000 is 0.0000121 a PEPE, 0.8 % from spot's 0.000012: paired, basis 83.3333 bps.
    const pepe = makeSnapshot({ exchange: "bybit", base: "PEPE", venueBase: "1000PEPE", contractMultiplier: 1000, markPrice: 0.0121, observedAt });
    const [item] = rankCarryOpportunities([pepe], [makeSpot({ exchange: "binance", market: "PEPE/USDT", base: "PEPE", price: 0.000012 })], { priceBound: 0.05 });
    expect(item?.basis_bps).toBe(83.3333);
    // A perpetual without a mark cannot be checked: paired, without a basis.
    const unpriced = rankCarryOpportunities([makeSnapshot({ exchange: "htx", markPrice: null, observedAt })], [spot], { priceBound: 0.05 });
    expect(unpriced.map(({ basis_bps, basis_unavailable_reason }) => [basis_bps, basis_unavailable_reason])).toEqual([[null, "price_missing"]]);
  });

  it("gives no basis for legs observed apart, and dates the item by the older leg", () => {
    const [item] = rankCarryOpportunities([makeSnapshot({ exchange: "bybit", observedAt: observedAt + 60_000 })], [makeSpot({ exchange: "binance" })]);
    expect(item).toMatchObject({ basis_bps: null, basis_unavailable_reason: "legs_observed_apart", updated_at: observedIso });
  });

  it("breaks APR ties by id, in code-unit order, whatever order the legs come in", () => {
    // Every spot_perp against one perpetual has its APR (10.95): the spot venue decides only the order.
    const perp = makeSnapshot({ exchange: "bybit", observedAt });
    const items = rankCarryOpportunities([perp], [makeSpot({ exchange: "okx" }), makeSpot({ exchange: "gate" }), makeSpot({ exchange: "binance" })]);
    expect(items.map(({ id, apr }) => [id, apr])).toEqual([
      ["BTC-spot_perp-binance-bybit", 10.95],
      ["BTC-spot_perp-gate-bybit", 10.95],
      ["BTC-spot_perp-okx-bybit", 10.95],
    ]);
  });

  it("orders ties by id text where assets and venues share a start, by numbers or, with a dash in an asset, by the texts", () => {
    // Equal funding on every perpetual: every spot_perp ties, every lent perp_spot too. BTC against BTCDOM,
    // hyperliquid against hyperliquid:xyz and A against A-B are names one of which starts the other.
    for (const bases of [["BTC", "BTCDOM", "B"], ["A", "A-B", "AB"]]) {
      const perps = bases.flatMap((base) =>
        (["hyperliquid", "hyperliquid:xyz", "okx"] as const).map((exchange) => makeSnapshot({ exchange, base, market: `${base}/USDC:USDC`, observedAt })),
      );
      const spots = bases.flatMap((base) =>
        (["okx", "binance"] as const).map((exchange) => makeSpot({ exchange, base, market: `${base}/USDT`, borrow: dailyBorrow(base) })),
      );
      const items = rankCarryOpportunities(perps, spots);
      expect(items).toHaveLength(bases.length * 3 * 2 * 2);
      const byAprThenId = [...items].sort((a, b) => (a.apr !== b.apr ? b.apr - a.apr : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      expect(items.map((item) => item.id)).toEqual(byAprThenId.map((item) => item.id));
    }
  });

  it("holds each leg and persistence once in its columns, the items pointing at them", () => {
    const perps = ["bybit", "okx", "gate"].map((exchange) => makeSnapshot({ exchange, observedAt }));
    const spots = [makeSpot({ exchange: "binance", borrow: btcBorrow }), makeSpot({ exchange: "okx" })];
    const columns = rankCarryColumns(perps, spots);
    expect(columns.count).toBe(3 * 2 + 3);
    expect(columns.perps.map((leg) => leg.exchange).sort()).toEqual(["bybit", "gate", "okx"]);
    expect(columns.spots.map((leg) => leg.exchange).sort()).toEqual(["binance", "okx"]);
    expect(columns.persistences).toEqual([UNKNOWN_PERSISTENCE]);
    expect(carryItemsOf(columns)).toEqual(rankCarryOpportunities(perps, spots));
  });

  it("takes one market a venue per side, and meets only crypto perpetuals of the asset", () => {
    const perps = [
      // Binance's BTC perpetuals: the most traded represents it, as in perp pairs.
      makeSnapshot({ exchange: "binance", volume24hUsd: 1, fundingRate: 0.0002, observedAt }),
      makeSnapshot({ exchange: "binance", market: "BTC/USDC:USDC", quote: "USDC", settle: "USDC", volume24hUsd: 2, observedAt }),
      // Without a rate or an interval a perpetual is no leg.
      makeSnapshot({ exchange: "okx", fundingRate: null, observedAt }),
      makeSnapshot({ exchange: "gate", fundingIntervalHours: null, fundingIntervalSource: null, observedAt }),
      // A HIP-3 equity never meets the crypto spot market of its ticker.
      makeSnapshot({ exchange: "hyperliquid:xyz", base: "TSLA", underlyingClass: "equity", observedAt }),
    ];
    const spots = [
      makeSpot({ exchange: "bybit", market: "BTC/USDC", quote: "USDC", volume24hUsd: 5 }),
      makeSpot({ exchange: "bybit", market: "BTC/USDT", volume24hUsd: 5 }),
      // Priced in euros: another unit than the perpetuals', however much it trades.
      makeSpot({ exchange: "bybit", market: "BTC/EUR", quote: "EUR", volume24hUsd: 9 }),
      makeSpot({ exchange: "okx", market: "BTC/EUR", quote: "EUR" }),
      makeSpot({ exchange: "bybit", market: "TSLA/USDT", base: "TSLA" }),
    ];
    const items = rankCarryOpportunities(perps, spots);
    expect(items.map(({ id, spot, perp }) => [id, spot.market, perp.market])).toEqual([["BTC-spot_perp-bybit-binance", "BTC/USDT", "BTC/USDC:USDC"]]);
  });

  it("gives a spot_perp the persistence of its perpetual against spot held, a perp_spot its perpetual's against the spot venue's borrowed asset", () => {
    const figures: Persistence = { ...UNKNOWN_PERSISTENCE, as_of: observedIso, apr_median_7d: 12.5, paid_share_7d: 0.9 };
    const borrowedFigures: Persistence = { ...UNKNOWN_PERSISTENCE, as_of: observedIso, apr_median_7d: -4, paid_share_7d: 0.1 };
    const asked: [MarketRef, MarketRef][] = [];
    const persistence = (long: MarketRef, short: MarketRef) => {
      asked.push([long, short]);
      const binanceBtc = borrowedSpot("binance", "BTC");
      if (long.exchange === "bybit" && short.exchange === binanceBtc.exchange && short.market === binanceBtc.market) return borrowedFigures;
      return long === HELD_SPOT && short.exchange === "bybit" ? figures : undefined;
    };
    const perps = [makeSnapshot({ exchange: "bybit", observedAt }), makeSnapshot({ exchange: "okx", observedAt })];
    const spots = [makeSpot({ exchange: "binance", borrow: btcBorrow }), makeSpot({ exchange: "okx" })];
    const items = rankCarryOpportunities(perps, spots, { persistence });
    const of = (id: string) => items.find((item) => item.id === id)?.persistence;
    expect(of("BTC-spot_perp-binance-bybit")).toEqual(figures);
    expect(of("BTC-spot_perp-okx-bybit")).toEqual(figures);
    expect(of("BTC-perp_spot-bybit-binance")).toEqual(borrowedFigures);
    // No figures known for OKX's perpetual, against spot held or borrowed.
    expect(of("BTC-spot_perp-binance-okx")).toEqual(UNKNOWN_PERSISTENCE);
    expect(of("BTC-perp_spot-okx-binance")).toEqual(UNKNOWN_PERSISTENCE);
    // Spot held asked once per perpetual, as the long side; borrowed spot once per perp_spot, as the short side.
    expect(asked.map(([long, short]) => [long.exchange === "spot" ? long : long.exchange, short.exchange === "borrowed" ? short.market : short.exchange])).toEqual([
      [HELD_SPOT, "bybit"],
      ["bybit", "binance:BTC"],
      [HELD_SPOT, "okx"],
      ["okx", "binance:BTC"],
    ]);
  });
});

describe("rankCarryOpportunities with the stored history", () => {
  it("gives the perpetual's leg its last settlement and interval change from the history, as the perp set's leg has them", () => {
    const perp = makeSnapshot({ exchange: "binance", fundingRate: 0.0001, fundingIntervalHours: 4, observedAt });
    const key = marketKey(perp.exchange, perp.market);
    const marketHistory = {
      settlements: new Map([[key, { rate: 0.00023, at: observedAt - 3_600_000 }]]),
      intervalChanges: new Map([[key, observedAt - 86_400_000]]),
    };
    const items = rankCarryOpportunities([perp], [makeSpot({ exchange: "binance" })], { marketHistory });
    expect(items).toHaveLength(1);
    expect(items[0]!.perp).toMatchObject({
      last_settled_rate: 0.00023,
      last_settled_at: new Date(observedAt - 3_600_000).toISOString(),
      interval_changed_at: new Date(observedAt - 86_400_000).toISOString(),
    });
    const pair = computeOpportunities([perp, makeSnapshot({ exchange: "okx", observedAt })], { marketHistory }).opportunities[0]!;
    expect(items[0]!.perp).toEqual([pair.long, pair.short].find((leg) => leg.exchange === "binance"));
    // Without the history, the snapshot's own: none.
    expect(rankCarryOpportunities([perp], [makeSpot({ exchange: "binance" })])[0]!.perp).toMatchObject({ last_settled_rate: null, interval_changed_at: null });
  });
});

describe("rankCarryColumns in working arrays kept between rankings", () => {
  it("ranks set after set, each in the arrays the last used, exactly what it ranks in new ones", () => {
    const kept = new ScratchArrays();
    const venues = ["binance", "bybit", "okx", "gate"] as const;
    const market = (base: string, venueCount: number, shift: number) => ({
      perps: venues.slice(0, venueCount).map((exchange, i) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * (i + 1) * shift })),
      spots: venues.slice(0, venueCount).map((exchange, i) => makeSpot({ exchange, base, market: `${base}/USDT`, ...(i % 2 === 0 && { borrow: dailyBorrow(base) }) })),
    });
    const sets = [
      [market("BTC", 2, 1)],
      [market("BTC", 4, 2), market("ETH", 4, -1), market("SOL", 3, 3)],
      [market("ETH", 2, 1)],
    ].map((markets) => ({ perps: markets.flatMap((m) => m.perps), spots: markets.flatMap((m) => m.spots) }));
    for (const { perps, spots } of [...sets, sets[1]!]) {
      const expected = carryItemsOf(rankCarryColumns(perps, spots));
      expect(expected.length).toBeGreaterThan(0);
      expect(carryItemsOf(rankCarryColumns(perps, spots, { take: kept.newRun() }))).toEqual(expected);
    }
  });
});
