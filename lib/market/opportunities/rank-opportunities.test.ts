import { describe, expect, it } from "vitest";
import { makeLeg } from "@/tests/support/market/make-leg";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { marketKey } from "../model/market-average";
import { PRICE_OBSERVATION_TOLERANCE_MS } from "../model/price-spread";
import { opportunitySchema, type MarketSnapshot } from "../model/types";
import { opportunityId } from "./encoding/columns";
import { computeOpportunities, rankOpportunities, strayPriceLegs } from "./rank-opportunities";

describe("computeOpportunities", () => {
  it("rejects a holding period that is not a positive number up front, even with nothing to pair", () => {
    expect(() => computeOpportunities([], { holdingDays: 0 })).toThrow(RangeError);
    expect(() => computeOpportunities([], { holdingDays: Number.POSITIVE_INFINITY })).toThrow(RangeError);
  });

  it("builds the docs/ARCHITECTURE.md shape, long on the cheaper annualised leg", () => {
    // Binance 0.01 %/8h (10.95 %/yr) looks dearer per interval than Hyperliquid's 0.002 %/1h,
    // but annualised Hyperliquid is dearer (17.52 %/yr): short Hyperliquid, long Binance.
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001, fundingIntervalHours: 8, markPrice: 100, takerFee: 0.0005 }),
      makeSnapshot({
        exchange: "hyperliquid",
        market: "BTC/USDC:USDC",
        settle: "USDC",
        quote: "USDC",
        fundingRate: 0.00002,
        fundingIntervalHours: 1,
        nextFundingAt: Date.UTC(2026, 8, 27, 14),
        markPrice: 101,
        takerFee: 0.00045,
        openInterestUsd: 400_000,
        volume24hUsd: 9_000_000,
        observedAt: Date.UTC(2026, 8, 27, 13, 30) - 20_000,
      }),
    ]);
    expect(opportunities).toHaveLength(1);
    const [opportunity] = opportunities;
    expect(opportunitySchema.parse(opportunity)).toEqual(opportunity);
    expect(opportunity).toEqual({
      id: "BTC-binance-hyperliquid",
      symbol: "BTC",
      type: "perp_perp",
      // makeLeg: 0.01 % per 8 h as the venue states it, no forecast, bounds, settlement or change.
      long: makeLeg({
        exchange: "binance",
        market: "BTC/USDT:USDT",
        next_funding_at: "2026-09-27T16:00:00.000Z",
        open_interest_usd: 1_000_000,
        volume_24h_usd: 5_000_000,
        observed_at: "2026-09-27T13:30:00.000Z",
      }),
      short: makeLeg({
        exchange: "hyperliquid",
        market: "BTC/USDC:USDC",
        funding_rate: 0.00002,
        funding_interval_hours: 1,
        funding_rate_per_hour: 0.00002,
        next_funding_at: "2026-09-27T14:00:00.000Z",
        mark_price: 101,
        open_interest_usd: 400_000,
        volume_24h_usd: 9_000_000,
        observed_at: "2026-09-27T13:29:40.000Z",
      }),
      apr: 6.57, // 17.52 − 10.95
      net_apr: -3.337143, // 6.57 − 2 × (0.0005 + 0.00045) × 365 / 7 × 100
      funding_spread_8h: 0.00006, // 0.00016 − 0.0001
      price_spread_bps: 99.5025,
      price_spread_unavailable_reason: null,
      open_interest_usd: 400_000,
      volume_24h_usd: 5_000_000,
      updated_at: "2026-09-27T13:29:40.000Z", // the older leg's, 20 s apart: within the tolerance
      // Only stored history tells; a round attaches it after ranking.
      persistence: { as_of: null, positive_since: null, apr_median_7d: null, apr_median_30d: null, paid_share_7d: null, apr_stddev_7d: null },
    });
  });

  it("gives each leg its venue's forecast, bounds and last settlement, and says when a rate sits at a bound", () => {
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001, rateCap: 0.02, rateFloor: -0.02, lastSettlement: { rate: 0.00009, at: Date.UTC(2026, 8, 27, 8) } }),
      makeSnapshot({ exchange: "gate", fundingRate: 0.003, predictedFundingRate: 0.0021, rateCap: 0.003, rateFloor: -0.003 }),
      makeSnapshot({ exchange: "okx", fundingRate: 0.0004, predictedFundingRate: -0.00375, rateCap: 0.00375, rateFloor: -0.00375 }),
    ]);
    const legs = new Map(opportunities.flatMap((o) => [o.long, o.short]).map((leg) => [leg.exchange, leg]));
    expect(legs.get("binance")).toMatchObject({
      predicted_funding_rate: null,
      rate_cap: 0.02,
      rate_floor: -0.02,
      at_cap: false,
      last_settled_rate: 0.00009,
      last_settled_at: "2026-09-27T08:00:00.000Z",
    });
    // At the cap by its current rate, and at the floor by its forecast.
    expect(legs.get("gate")).toMatchObject({ funding_rate: 0.003, predicted_funding_rate: 0.0021, at_cap: true, last_settled_rate: null, last_settled_at: null });
    expect(legs.get("okx")).toMatchObject({ predicted_funding_rate: -0.00375, at_cap: true });
  });

  it("keeps a venue-stated last settlement (Deribit's trailing funding_8h) when stored history has none for the market", () => {
    const trailing = { rate: -0.00081069, at: Date.UTC(2026, 8, 27, 13) };
    const { opportunities } = computeOpportunities(
      [
        makeSnapshot({ exchange: "deribit", fundingRate: 0.00012966, lastSettlement: trailing }),
        makeSnapshot({ exchange: "okx", fundingRate: 0.0004, lastSettlement: { rate: 0.0003, at: Date.UTC(2026, 8, 27, 8) } }),
      ],
      { marketHistory: { intervalChanges: new Map(), settlements: new Map([[marketKey("okx", "BTC/USDT:USDT"), { rate: 0.0002, at: Date.UTC(2026, 8, 27, 8) }]]) } },
    );
    const legs = new Map(opportunities.flatMap((o) => [o.long, o.short]).map((leg) => [leg.exchange, leg]));
    expect(legs.get("deribit")).toMatchObject({ funding_rate: 0.00012966, last_settled_rate: -0.00081069, last_settled_at: "2026-09-27T13:00:00.000Z" });
    // Stored history, where it has the market, wins.
    expect(legs.get("okx")).toMatchObject({ last_settled_rate: 0.0002 });
  });

  it("overrides the holding period and charges the fallback fee for legs without one", () => {
    const snapshots = [
      makeSnapshot({ exchange: "okx", fundingRate: 0.0001, takerFee: null }),
      makeSnapshot({ exchange: "gate", fundingRate: 0.00011, takerFee: null }),
    ];
    const [opportunity] = computeOpportunities(snapshots, { holdingDays: 30, fallbackTakerFee: 0.001 }).opportunities;
    // fee drag 2 × 0.002 × 365 / 30 × 100 = 4.8666667
    expect(opportunity?.net_apr).toBeCloseTo(1.095 - 4.866667, 6);
    expect(opportunity?.long.exchange).toBe("okx");
  });

  it("pairs 1000PEPE, kPEPE and PEPE and compares prices per token", () => {
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "binance", base: "PEPE", venueBase: "1000PEPE", market: "1000PEPE/USDT:USDT", contractMultiplier: 1000, markPrice: 0.0105, fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "okx", base: "PEPE", market: "PEPE/USDT:USDT", markPrice: 0.00001, fundingRate: -0.0001 }),
    ]);
    expect(opportunities.map((o) => o.id)).toEqual(["PEPE-okx-binance"]);
    // long OKX at 0.00001/PEPE, short Binance at 0.0105/1000 PEPE = 0.0000105/PEPE
    expect(opportunities[0]?.price_spread_bps).toBeCloseTo((0.0000005 / 0.00001025) * 10_000, 3); // 487.8049
    expect(opportunities[0]?.long.mark_price).toBe(0.00001);
    expect(opportunities[0]?.short.mark_price).toBe(0.0105);
  });

  it("yields every venue pair once and nothing for single-venue assets", () => {
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "bybit", fundingRate: 0.0002 }),
      makeSnapshot({ exchange: "okx", fundingRate: 0.0003 }),
      makeSnapshot({ exchange: "okx", base: "HYPE", fundingRate: 0.001 }),
    ]);
    expect(opportunities.map((o) => [o.id, o.apr])).toEqual([
      ["BTC-binance-okx", 21.9],
      ["BTC-binance-bybit", 10.95],
      ["BTC-bybit-okx", 10.95],
    ]);
  });

  it("sorts by apr descending, ties by id", () => {
    const snapshots: MarketSnapshot[] = [];
    for (const base of ["ZZZ", "AAA", "MMM"]) {
      snapshots.push(makeSnapshot({ exchange: "bybit", base, fundingRate: 0.0001 }));
      snapshots.push(makeSnapshot({ exchange: "gate", base, fundingRate: 0.0002 }));
    }
    snapshots.push(makeSnapshot({ exchange: "bybit", base: "TOP", fundingRate: -0.001 }));
    snapshots.push(makeSnapshot({ exchange: "gate", base: "TOP", fundingRate: 0.001 }));
    const ids = computeOpportunities(snapshots).opportunities.map((o) => o.id);
    expect(ids).toEqual(["TOP-bybit-gate", "AAA-bybit-gate", "MMM-bybit-gate", "ZZZ-bybit-gate"]);
    // Same input in another order, same output.
    expect(computeOpportunities([...snapshots].reverse()).opportunities.map((o) => o.id)).toEqual(ids);
  });

  it("pairs markets only within one underlying class: a HIP-3 index never meets the main dex's SPX memecoin", () => {
    const { opportunities } = computeOpportunities([
      // Hyperliquid's SPX is the SPX6900 memecoin (crypto, the class of every snapshot without one).
      makeSnapshot({ exchange: "hyperliquid", base: "SPX", fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "bybit", base: "SPX", fundingRate: -0.0001 }),
      // Two HIP-3 S&P 500 perps that happen to share the ticker: they pair with each other only.
      makeSnapshot({ exchange: "hyperliquid:xyz", base: "SPX", fundingRate: 0.0003, underlyingClass: "index", tradingHours: "always-off-hours-oracle" }),
      makeSnapshot({ exchange: "hyperliquid:km", base: "SPX", fundingRate: 0.0002, underlyingClass: "index", tradingHours: "always-off-hours-oracle" }),
      // An equity of the same ticker pairs with no index.
      makeSnapshot({ exchange: "hyperliquid:cash", base: "SPX", fundingRate: 0.0005, underlyingClass: "equity" }),
      // A HIP-3 crypto market pairs with crypto as any venue's does.
      makeSnapshot({ exchange: "hyperliquid:hyna", base: "SPX", fundingRate: 0, underlyingClass: "crypto" }),
    ]);
    expect(opportunities.map((o) => o.id).sort()).toEqual([
      "SPX-bybit-hyperliquid",
      "SPX-bybit-hyperliquid:hyna",
      "SPX-hyperliquid:hyna-hyperliquid",
      "SPX-hyperliquid:km-hyperliquid:xyz",
    ]);
    // The legs say what they track and when they trade; crypto legs, as every venue's before, say neither.
    const index = opportunities.find((o) => o.id === "SPX-hyperliquid:km-hyperliquid:xyz")!;
    expect(opportunitySchema.parse(index)).toEqual(index);
    expect([index.long.underlying_class, index.long.trading_hours, index.short.underlying_class]).toEqual(["index", "always-off-hours-oracle", "index"]);
    const memecoin = opportunities.find((o) => o.id === "SPX-bybit-hyperliquid")!;
    expect(memecoin.long).not.toHaveProperty("underlying_class");
    expect(memecoin.short).not.toHaveProperty("trading_hours");
    // Equal APRs in two groups of one asset name: id order, not the groups' order of arrival.
    const tied = computeOpportunities([
      makeSnapshot({ exchange: "okx", base: "SPX", fundingRate: 0 }),
      makeSnapshot({ exchange: "phemex", base: "SPX", fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "hyperliquid:km", base: "SPX", fundingRate: 0, underlyingClass: "index" }),
      makeSnapshot({ exchange: "hyperliquid:xyz", base: "SPX", fundingRate: 0.0001, underlyingClass: "index" }),
    ]).opportunities;
    expect(tied.map((o) => o.id)).toEqual(["SPX-hyperliquid:km-hyperliquid:xyz", "SPX-okx-phemex"]);
    // Both groups share the asset's name, and their ids still come in APR-then-id order.
    const expected = [...opportunities].sort((x, y) => y.apr - x.apr || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    expect(opportunities.map((o) => o.id)).toEqual(expected.map((o) => o.id));
  });

  it("keeps the id when funding is equal on both legs (exchange order decides)", () => {
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "okx", fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
    ]);
    expect(opportunities[0]?.id).toBe(opportunityId("BTC", "binance", "okx"));
    expect(opportunities[0]?.apr).toBe(0);
    expect(Object.is(opportunities[0]?.apr, 0)).toBe(true);
  });

  it("skips and counts markets without a rate or an interval, and shadowed second markets", () => {
    const scan = computeOpportunities([
      makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }),
      makeSnapshot({ exchange: "bybit", fundingRate: null }),
      makeSnapshot({ exchange: "okx", fundingIntervalHours: null, fundingIntervalSource: null }),
      // Binance's USDC twin trades less, so the USDT market represents Binance for BTC.
      makeSnapshot({ exchange: "binance", market: "BTC/USDC:USDC", settle: "USDC", quote: "USDC", volume24hUsd: 10, fundingRate: -0.01 }),
      makeSnapshot({ exchange: "gate", fundingRate: 0.0002 }),
    ]);
    expect(scan.skipped).toEqual({ missingRate: 1, unknownInterval: 1, shadowed: 1, priceOutliers: 0 });
    expect(scan.opportunities.map((o) => [o.id, o.long.market])).toEqual([["BTC-binance-gate", "BTC/USDT:USDT"]]);
  });

  it("reports the smaller leg's depth, and unknown when either leg's is unknown", () => {
    const [known] = computeOpportunities([
      makeSnapshot({ exchange: "bybit", openInterestUsd: 5, volume24hUsd: 50 }),
      makeSnapshot({ exchange: "gate", fundingRate: 0.0002, openInterestUsd: 7, volume24hUsd: 30 }),
    ]).opportunities;
    expect([known?.open_interest_usd, known?.volume_24h_usd]).toEqual([5, 30]);
    const [unknown] = computeOpportunities([
      makeSnapshot({ exchange: "binance", openInterestUsd: null }),
      makeSnapshot({ exchange: "gate", fundingRate: 0.0002, openInterestUsd: 7, markPrice: null }),
    ]).opportunities;
    expect(unknown?.open_interest_usd).toBeNull();
    expect(unknown?.price_spread_bps).toBeNull();
    expect(unknown?.price_spread_unavailable_reason).toBe("price_missing");
  });

  it("gives no price spread between legs observed further apart than the tolerance, and says why", () => {
    const at = Date.UTC(2026, 8, 27, 13, 30);
    const { opportunities } = computeOpportunities([
      makeSnapshot({ exchange: "binance", markPrice: 100, observedAt: at }),
      makeSnapshot({ exchange: "bybit", fundingRate: 0.0002, markPrice: 100.1, observedAt: at + PRICE_OBSERVATION_TOLERANCE_MS }),
      makeSnapshot({ exchange: "okx", fundingRate: 0.0003, markPrice: 95, observedAt: at - 3 * 24 * 3_600_000 }),
    ]);
    const byId = new Map(opportunities.map((o) => [o.id, o]));
    expect(byId.get("BTC-binance-bybit")).toMatchObject({ price_spread_bps: 9.995, price_spread_unavailable_reason: null });
    for (const id of ["BTC-binance-okx", "BTC-bybit-okx"]) {
      expect(byId.get(id), id).toMatchObject({ price_spread_bps: null, price_spread_unavailable_reason: "legs_observed_apart" });
    }
    // The legs say when each was observed, so a reader can see how far apart.
    expect(byId.get("BTC-binance-okx")?.short.observed_at).toBe("2026-09-24T13:30:00.000Z");
    expect(byId.get("BTC-binance-okx")?.updated_at).toBe("2026-09-24T13:30:00.000Z");
  });

  it("ranks every pair of 600 assets × 8 venues, in order (its cost is measured by npm run bench:market)", () => {
    const venues = ["binance", "bybit", "okx", "bitget", "gate", "hyperliquid", "dydx", "kraken"];
    const snapshots: MarketSnapshot[] = [];
    for (let asset = 0; asset < 600; asset += 1) {
      venues.forEach((exchange, v) => {
        snapshots.push(
          makeSnapshot({
            exchange,
            base: `A${asset}`,
            fundingRate: (((asset * 31 + v * 17) % 41) - 20) * 0.00001,
            fundingIntervalHours: [1, 4, 8][(asset + v) % 3] ?? 8,
            markPrice: 10 + v * 0.001,
          }),
        );
      });
    }
    const { opportunities } = computeOpportunities(snapshots);
    expect(opportunities).toHaveLength(600 * 28);
    const misordered = opportunities.findIndex((current, i) => {
      const previous = opportunities[i - 1];
      return previous !== undefined && !(previous.apr > current.apr || (previous.apr === current.apr && previous.id < current.id));
    });
    expect(misordered).toBe(-1);
  });
});

describe("computeOpportunities with pair persistence", () => {
  it("looks each paired market up by name once and each pair by its markets' numbers, turned to the pair's long and short", () => {
    const venues = ["binance", "bybit", "okx", "gate"];
    const snapshots = ["BTC", "ETH"].flatMap((base) =>
      venues.map((exchange, v) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * (v + 1), fundingIntervalHours: 8 })),
    );
    const named: string[] = [];
    const asked: [number, number][] = [];
    const figures: number[] = [];
    const { opportunities } = computeOpportunities(snapshots, {
      persistence: {
        marketNumber: (market) => named.push(marketKey(market.exchange, market.market)) - 1,
        // Known for the pairs with a leg on Gate.
        slotOf: (long, short) => {
          asked.push([long, short]);
          if (!named[long]!.startsWith("gate") && !named[short]!.startsWith("gate")) return -1;
          // The 7-day median the long market's number, the 30-day one the short's; since the first of sinceTexts.
          return figures.push(long, short, 0.5, Number.NaN, 0) / 5 - 1;
        },
        slots: () => ({ figures, asOf: "2026-09-27T13:00:00.000Z", sinceTexts: ["2026-09-20T00:00:00.000Z"] }),
      },
    });
    expect(named).toHaveLength(8);
    expect(new Set(named).size).toBe(8);
    expect(asked).toHaveLength(opportunities.length);
    for (const o of opportunities) {
      const [long, short] = [named.indexOf(marketKey(o.long.exchange, o.long.market)), named.indexOf(marketKey(o.short.exchange, o.short.market))];
      if (o.long.exchange !== "gate" && o.short.exchange !== "gate") {
        expect(o.persistence).toEqual({ as_of: null, positive_since: null, apr_median_7d: null, apr_median_30d: null, paid_share_7d: null, apr_stddev_7d: null });
        continue;
      }
      expect(o.persistence).toEqual({ as_of: "2026-09-27T13:00:00.000Z", positive_since: "2026-09-20T00:00:00.000Z", apr_median_7d: long, apr_median_30d: short, paid_share_7d: 0.5, apr_stddev_7d: null });
    }
  });
});

describe("computeOpportunities with averages", () => {
  const snapshots = [makeSnapshot({ exchange: "binance", fundingRate: 0.0001 }), makeSnapshot({ exchange: "okx", fundingRate: 0.0003 })];

  it("gives each pair the short leg's mean annualised funding minus the long leg's", () => {
    const averages = new Map([
      [marketKey("binance", "BTC/USDT:USDT"), { day: 10, week: 12.5 }],
      [marketKey("okx", "BTC/USDT:USDT"), { day: 25, week: 20 }],
    ]);
    const [item] = computeOpportunities(snapshots, { averages }).opportunities;
    expect(item).toMatchObject({ id: "BTC-binance-okx", apr_1d_avg: 15, apr_7d_avg: 7.5 });
  });

  it("is null when either leg has no history in the window, and absent when no averages are kept", () => {
    const averages = new Map([
      [marketKey("binance", "BTC/USDT:USDT"), { day: null, week: 12.5 }],
      [marketKey("okx", "BTC/USDT:USDT"), { day: 25, week: 20 }],
    ]);
    expect(computeOpportunities(snapshots, { averages }).opportunities[0]).toMatchObject({ apr_1d_avg: null, apr_7d_avg: 7.5 });
    expect(computeOpportunities(snapshots, { averages: new Map() }).opportunities[0]).toMatchObject({ apr_1d_avg: null, apr_7d_avg: null });
    expect(computeOpportunities(snapshots).opportunities[0]).not.toHaveProperty("apr_1d_avg");
  });
});

describe("computeOpportunities' order", () => {
  it("is by APR, highest first, and by id among equal APRs", () => {
    const venues = ["okx", "binance", "gate", "bybit"];
    const snapshots = ["ETH", "BTC", "SOL"].flatMap((base) =>
      venues.map((exchange, i) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * (i % 2) })),
    );
    const ranked = computeOpportunities(snapshots).opportunities;
    const expected = [...ranked].sort((x, y) => y.apr - x.apr || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
    expect(ranked.map((o) => o.id)).toEqual(expected.map((o) => o.id));
    expect(new Set(ranked.map((o) => o.apr)).size).toBeLessThan(ranked.length);
  });

  it("puts equal APRs in id text order where one asset's or venue's name starts another's, and when a name holds a dash", () => {
    const rank = (bases: string[], venues: string[]) => {
      const snapshots = bases.flatMap((base) =>
        venues.map((exchange, i) => makeSnapshot({ exchange: exchange as MarketSnapshot["exchange"], base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * (i % 2) })),
      );
      const ranked = computeOpportunities(snapshots).opportunities.map((o) => [o.apr, o.id] as const);
      const expected = [...ranked].sort(([aprX, x], [aprY, y]) => aprY - aprX || (x < y ? -1 : x > y ? 1 : 0));
      expect(ranked).toEqual(expected);
      expect(new Set(ranked.map(([apr]) => apr)).size).toBeLessThan(ranked.length);
    };
    rank(["BTCDOM", "BTC", "BT", "B2", "BTC0", "BTC+"], ["okx", "okxus", "ok", "ok+", "gate", "gateio"]);
    // `BTC-X-…` against `BTC-okx-…`: only the texts tell (the dash comes before letters).
    rank(["BTC-X", "BTC", "BTCX", "BTC-0"], ["okx", "X", "gate"]);
  });
});

describe("computeOpportunities with a price bound", () => {
  // The Neiro that Binance lists as NEIRO, Hyperliquid as kNEIRO and Bybit as 1000NEIROCTO (one asset
  // through the asset map), beside a venue whose NEIRO is the other token, Neiro Ethereum, priced in
  // cents; HTX states no mark. Magnitudes of 2025's quotes.
  const neiro = (exchange: MarketSnapshot["exchange"], venueBase: string, multiplier: number, markPrice: number | null, fundingRate: number) =>
    makeSnapshot({ exchange, base: "NEIRO", venueBase, market: `${venueBase}/USDT:USDT`, contractMultiplier: multiplier, markPrice, fundingRate });
  const snapshots = [
    neiro("binance", "NEIRO", 1, 0.00045, 0.0001),
    neiro("hyperliquid", "kNEIRO", 1000, 0.45, 0.0002),
    neiro("bybit", "1000NEIROCTO", 1000, 0.452, -0.0001),
    neiro("gate", "NEIRO", 1, 0.051, 0.003),
    neiro("htx", "NEIRO", 1, null, 0.0004),
    makeSnapshot({ exchange: "binance", fundingRate: 0.0001, markPrice: 97_000 }),
    makeSnapshot({ exchange: "gate", fundingRate: 0.0002, markPrice: 97_050 }),
  ];

  it("pairs the other legs and never the one whose price strays, listing it with the asset's median", () => {
    const { opportunities, skipped, excluded } = computeOpportunities(snapshots, { priceBound: 0.05 });
    const neiroIds = opportunities.filter((o) => o.symbol === "NEIRO").map((o) => o.id).sort();
    // Four legs left, six pairs; HTX, without a mark, cannot be checked and stays.
    expect(neiroIds).toEqual(["NEIRO-binance-htx", "NEIRO-binance-hyperliquid", "NEIRO-bybit-binance", "NEIRO-bybit-htx", "NEIRO-bybit-hyperliquid", "NEIRO-hyperliquid-htx"]);
    expect(opportunities.map((o) => o.id)).toContain("BTC-binance-gate");
    expect(skipped.priceOutliers).toBe(1);
    expect(excluded).toEqual([
      {
        exchange: "gate",
        market: "NEIRO/USDT:USDT",
        venue_base: "NEIRO",
        asset: "NEIRO",
        unit_price: 0.051,
        median_price: (0.00045 + 0.000452) / 2,
      },
    ]);
    // Without the bound (the sample, the sandbox) every venue pairs: the gate leg in four more pairs.
    expect(computeOpportunities(snapshots).opportunities.filter((o) => o.symbol === "NEIRO")).toHaveLength(10);
  });

  it("lists the same legs from the markets alone as the ranking leaves out (what a round records)", () => {
    const ranked = rankOpportunities(snapshots, { priceBound: 0.05 });
    expect(strayPriceLegs(snapshots, 0.05)).toEqual(ranked.excluded);
    // An index and a memecoin never meet, so neither strays from the other.
    const classes = [
      makeSnapshot({ exchange: "hyperliquid", base: "SPX", markPrice: 1.21 }),
      makeSnapshot({ exchange: "bybit", base: "SPX", markPrice: 1.2 }),
      makeSnapshot({ exchange: "hyperliquid:km", base: "SP500", venueBase: "US500", markPrice: 6_850, underlyingClass: "index" }),
      makeSnapshot({ exchange: "hyperliquid:cash", base: "SP500", venueBase: "USA500", markPrice: 6_846, underlyingClass: "index" }),
    ];
    const scan = computeOpportunities(classes, { priceBound: 0.05 });
    expect(scan.excluded).toEqual([]);
    expect(scan.opportunities.map((o) => o.id).sort()).toEqual(["SP500-hyperliquid:cash-hyperliquid:km", "SPX-bybit-hyperliquid"]);
  });
});
