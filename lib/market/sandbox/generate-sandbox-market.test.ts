import { describe, expect, it } from "vitest";
import { normaliseBase } from "../model/normalise-base";
import { marketSnapshotSchema, type MarketSnapshot } from "../model/types";
import { SANDBOX_LEFT_OUT, SANDBOX_VENUE_IDS } from "./venue-profiles";
import { registryTakerFee, VENUE_REGISTRY } from "../venues/venue-registry";
import { VENUE_ADAPTERS } from "../venues/connectors/venue-adapters";
import { SANDBOX_EDGE_CASES } from "./edge-cases";
import {
  SANDBOX_ASSET_COUNT,
  SANDBOX_MIN_ASSETS,
  generateSandboxMarket,
  type SandboxMarket,
} from "./generate-sandbox-market";

const AT = new Date("2026-11-21T19:04:05.123Z");
const NEXT_MINUTE = new Date("2026-11-21T19:05:00.000Z");
const { staleVenue, negativeFunding, singleVenue, hourlyFunding, bundled } = SANDBOX_EDGE_CASES;

const rate8h = (s: MarketSnapshot) => ((s.fundingRate ?? Number.NaN) * 8) / (s.fundingIntervalHours ?? Number.NaN);
const unitMark = (s: MarketSnapshot) => (s.markPrice ?? Number.NaN) / s.contractMultiplier;
const key = (s: MarketSnapshot) => `${s.exchange}|${s.market}`;
const snapshotsOf = (market: SandboxMarket, base: string) => market.snapshots.filter((s) => s.base === base);
const bases = (market: SandboxMarket) => new Set(market.snapshots.map((s) => s.base));

/** Minutes spread over a year, to check the promises hold at any time, not just at AT. */
const SAMPLE_MINUTES = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 9_127_000 * 60));

describe("generateSandboxMarket: determinism", () => {
  const market = generateSandboxMarket(AT);

  it("gives byte-identical output for any instant of the same minute", () => {
    const again = generateSandboxMarket(new Date("2026-11-21T19:04:59.999Z"));
    expect(JSON.stringify(again)).toBe(JSON.stringify(market));
    expect(market.asOf).toBe("2026-11-21T19:04:00.000Z");
  });

  it("gives different numbers for a different seed, on the same listings", () => {
    const other = generateSandboxMarket(AT, { seed: "another" });
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(market));
    expect(other.snapshots.map(key)).toEqual(market.snapshots.map(key));
    const btc = (m: SandboxMarket) => m.snapshots.find((s) => s.base === "BTC")?.markPrice;
    expect(btc(other)).not.toBe(btc(market));
  });

  it("drifts a little from one minute to the next", () => {
    const next = generateSandboxMarket(NEXT_MINUTE);
    expect(JSON.stringify(next)).not.toBe(JSON.stringify(market));
    const before = new Map(market.snapshots.map((s) => [key(s), s]));
    let moved = 0;
    for (const after of next.snapshots) {
      if (after.exchange === staleVenue) continue;
      const previous = before.get(key(after));
      if (!previous) throw new Error(`${key(after)} missing a minute earlier`);
      const priceStep = Math.abs(unitMark(after) / unitMark(previous) - 1);
      expect(priceStep, key(after)).toBeLessThan(0.01);
      expect(Math.abs(rate8h(after) - rate8h(previous)), key(after)).toBeLessThan(0.0005);
      if (after.markPrice !== previous.markPrice) moved += 1;
    }
    expect(moved).toBeGreaterThan(next.snapshots.length / 2);
    const btc = (m: SandboxMarket) => unitMark(m.snapshots.find((s) => s.base === "BTC") as MarketSnapshot);
    expect(btc(next)).not.toBe(btc(market));
    expect(Math.abs(btc(next) / btc(market) - 1)).toBeLessThan(0.002);
  });

  it("behaves like a live market, not white noise: a day moves rates far more than a minute", () => {
    const dayLater = generateSandboxMarket(new Date(AT.getTime() + 86_400_000));
    const next = generateSandboxMarket(NEXT_MINUTE);
    const meanStep = (later: SandboxMarket) => {
      const before = new Map(market.snapshots.map((s) => [key(s), rate8h(s)]));
      const steps = later.snapshots
        .filter((s) => s.exchange !== staleVenue)
        .map((s) => Math.abs(rate8h(s) - (before.get(key(s)) ?? Number.NaN)));
      return steps.reduce((a, b) => a + b, 0) / steps.length;
    };
    expect(meanStep(dayLater)).toBeGreaterThan(10 * meanStep(next));
  });
});

describe("generateSandboxMarket: shape and realism", () => {
  const market = generateSandboxMarket(AT);

  it("produces snapshots valid for marketSnapshotSchema on the six venues", () => {
    for (const snapshot of market.snapshots) {
      expect(marketSnapshotSchema.parse(snapshot)).toEqual(snapshot);
      expect(SANDBOX_VENUE_IDS).toContain(snapshot.exchange);
      expect(snapshot.fundingRate).not.toBeNull();
      expect(snapshot.fundingIntervalHours).not.toBeNull();
    }
    expect(market.venues.map((venue) => venue.id)).toEqual(Object.keys(VENUE_ADAPTERS));
    expect(new Set(market.snapshots.map((s) => s.exchange))).toEqual(new Set(SANDBOX_VENUE_IDS));
  });

  it("serves the live venue set: every venue of the live connectors' registry, markets on all but the non-crypto HIP-3 dexes", () => {
    const listing = Object.keys(VENUE_ADAPTERS).filter((venue) => !SANDBOX_LEFT_OUT.has(venue as never));
    expect([...SANDBOX_LEFT_OUT].sort()).toEqual(["hyperliquid:cash", "hyperliquid:flx", "hyperliquid:km", "hyperliquid:para", "hyperliquid:vntl", "hyperliquid:xyz"]);
    expect([...SANDBOX_VENUE_IDS]).toEqual(listing);
    expect(market.venues.map((venue) => venue.id)).toEqual(Object.keys(VENUE_ADAPTERS));
    expect(new Set(market.snapshots.map((s) => s.exchange))).toEqual(new Set(listing));
  });

  it("gives each venue's markets the interval, cap and fee behaviour its live connector has", () => {
    for (const s of market.snapshots) {
      const live = VENUE_REGISTRY[s.exchange as keyof typeof VENUE_REGISTRY];
      expect(live.intervalsHours, key(s)).toContain(s.fundingIntervalHours);
      expect(live.intervalSources, key(s)).toContain(s.fundingIntervalSource);
      expect(s.settle, key(s)).toBe(s.market.endsWith(":USDC") ? "USDC" : live.settle);
      // Venues whose connector reads no bounds (Deribit, dYdX, Lighter, BitMEX, …) have none here either.
      if (!live.statesRateBounds) expect([s.rateCap, s.rateFloor], key(s)).toEqual([null, null]);
      expect(s.takerFee, key(s)).toBe(registryTakerFee(s.exchange as keyof typeof VENUE_REGISTRY));
    }
    const hours = (venue: string) => new Set(market.snapshots.filter((s) => s.exchange === venue).map((s) => s.fundingIntervalHours));
    for (const venue of ["hyperliquid", "dydx", "lighter", "extended"]) expect(hours(venue)).toEqual(new Set([1]));
    expect(hours("deribit")).toEqual(new Set([8]));
    expect(market.snapshots.find((s) => s.exchange === "deribit")?.fundingIntervalSource).toBe("continuous");
  });

  it("has 200 assets, majors on every venue, the rest on realistic subsets", () => {
    expect(SANDBOX_ASSET_COUNT).toBe(200);
    expect(bases(market).size).toBe(200);
    for (const major of ["BTC", "ETH", "SOL"]) {
      expect(new Set(snapshotsOf(market, major).map((s) => s.exchange)).size).toBe(SANDBOX_VENUE_IDS.length);
    }
    const venueCounts = [...bases(market)].map((base) => new Set(snapshotsOf(market, base).map((s) => s.exchange)).size);
    expect(venueCounts.filter((n) => n === 1)).toHaveLength(1);
    expect(venueCounts.filter((n) => n < SANDBOX_VENUE_IDS.length).length).toBeGreaterThan(50);
    // The six venues the sandbox started with list most assets; the others the majors and a share of the rest.
    for (const venue of SANDBOX_VENUE_IDS) {
      const listed = market.snapshots.filter((s) => s.exchange === venue).length;
      expect(listed, venue).toBeGreaterThan(["binance", "bybit", "okx", "bitget", "gate", "hyperliquid"].includes(venue) ? 80 : 5);
    }
  });

  it("keeps base, venueBase and multiplier consistent with the live normalisation", () => {
    for (const s of market.snapshots) {
      expect(normaliseBase(s.venueBase), key(s)).toEqual({ base: s.base, multiplier: s.contractMultiplier });
      expect(s.quote).toBe(s.settle);
      // ccxt's symbol bases: Hyperliquid upper-cases `kPEPE`, and names a HIP-3 coin `HYNA-BTC`.
      const symbolBase = s.exchange === "hyperliquid" ? s.venueBase.toUpperCase() : s.exchange === "hyperliquid:hyna" ? `HYNA-${s.venueBase}` : s.venueBase;
      expect(s.market).toBe(`${symbolBase}/${s.settle}:${s.settle}`);
    }
    const ids = market.snapshots.map((s) => `${s.exchange}|${s.venueMarketId}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("prices span 1e-5 to 1e5 per token with BTC and ETH near realistic levels", () => {
    const prices = market.snapshots.map(unitMark);
    expect(Math.min(...prices)).toBeGreaterThan(5e-6);
    expect(Math.min(...prices)).toBeLessThan(5e-5);
    expect(Math.max(...prices)).toBeGreaterThan(5e4);
    expect(Math.max(...prices)).toBeLessThan(2e5);
    for (const s of snapshotsOf(market, "BTC")) expect(unitMark(s)).toBeGreaterThan(70_000);
    for (const s of snapshotsOf(market, "ETH")) expect(unitMark(s)).toBeGreaterThan(2_000);
  });

  it("quotes the same asset within a few bps across fresh venues", () => {
    for (const base of bases(market)) {
      const marks = snapshotsOf(market, base).filter((s) => s.exchange !== staleVenue).map(unitMark);
      const spreadBps = (Math.max(...marks) / Math.min(...marks) - 1) * 10_000;
      expect(spreadBps, base).toBeLessThan(25);
    }
    const btc = snapshotsOf(market, "BTC").filter((s) => s.exchange !== staleVenue).map(unitMark);
    expect(new Set(btc).size).toBeGreaterThan(1);
  });

  it("centres funding on 0.01 %/8h with a fat tail and a share of negative rates", () => {
    const rates = market.snapshots.map(rate8h).sort((a, b) => a - b);
    const median = rates[Math.floor(rates.length / 2)] ?? Number.NaN;
    expect(median).toBeGreaterThan(0.00005);
    expect(median).toBeLessThan(0.00015);
    const negativeShare = rates.filter((r) => r < 0).length / rates.length;
    expect(negativeShare).toBeGreaterThan(0.05);
    expect(negativeShare).toBeLessThan(0.4);
    expect(rates.filter((r) => Math.abs(r) > 0.001).length).toBeGreaterThan(5);
    // Binance and Bybit pin small premiums to exactly the interest rate, as the real venues do.
    const pinned = market.snapshots.filter((s) => s.exchange === "binance" && Math.abs(rate8h(s) - 0.0001) < 1e-12);
    expect(pinned.length).toBeGreaterThan(30);
  });

  it("settles mostly every 8h, some markets every 4h, 2h or 1h, Hyperliquid always hourly", () => {
    const count = (h: number) => market.snapshots.filter((s) => s.fundingIntervalHours === h).length;
    expect(count(8)).toBeGreaterThan(market.snapshots.length / 2);
    for (const h of [1, 2, 4]) expect(count(h)).toBeGreaterThan(0);
    for (const s of market.snapshots.filter((x) => x.exchange === "hyperliquid")) expect(s.fundingIntervalHours).toBe(1);
    for (const venue of ["binance", "bybit"]) {
      const hourly = market.snapshots.filter((s) => s.exchange === venue && s.fundingIntervalHours !== 8);
      expect(hourly.length, venue).toBeGreaterThan(5);
    }
    for (const s of market.snapshots) {
      const intervalMs = (s.fundingIntervalHours ?? 0) * 3_600_000;
      expect(s.nextFundingAt ?? 0).toBeGreaterThan(s.observedAt);
      expect((s.nextFundingAt ?? 0) - s.observedAt).toBeLessThanOrEqual(intervalMs);
      expect((s.nextFundingAt ?? 1) % intervalMs).toBe(0);
    }
  });

  it("uses the connectors' taker fees and their null fields", () => {
    const fees = Object.fromEntries(market.snapshots.map((s) => [s.exchange, s.takerFee]));
    // Each venue's published base tier (Bybit 0.055 %, Extended 0.025 %, …), else its connector's.
    expect(fees).toEqual(Object.fromEntries(SANDBOX_VENUE_IDS.map((venue) => [venue, registryTakerFee(venue)])));
    expect(fees).toMatchObject({ binance: 0.0005, bybit: 0.00055, okx: 0.0005, bitget: 0.0006, gate: 0.0005, hyperliquid: 0.00045, extended: 0.00025 });
    for (const s of market.snapshots) {
      expect(s.openInterestUsd === null, key(s)).toBe(s.exchange === "binance");
      expect(s.indexPrice === null, key(s)).toBe(s.exchange === "okx");
    }
  });

  it("scales volume and open interest with the asset's size", () => {
    const volume = (base: string) => snapshotsOf(market, base).reduce((sum, s) => sum + (s.volume24hUsd ?? 0), 0);
    expect(volume("BTC")).toBeGreaterThan(2e10);
    expect(volume("BTC")).toBeGreaterThan(volume("ETH"));
    expect(volume("ETH")).toBeGreaterThan(10 * volume("ZEREBRO"));
    expect(volume("ZEREBRO")).toBeGreaterThan(1e6);
    const btcOi = snapshotsOf(market, "BTC").find((s) => s.exchange === "bybit" && s.settle === "USDT")?.openInterestUsd ?? 0;
    expect(btcOi).toBeGreaterThan(1e9);
  });

  it("lists a thinner USDC twin of BTC and ETH on Binance and Bybit", () => {
    for (const venue of ["binance", "bybit"]) {
      const btc = snapshotsOf(market, "BTC").filter((s) => s.exchange === venue);
      expect(btc.map((s) => s.settle)).toEqual(["USDT", "USDC"]);
      expect(btc[1]?.volume24hUsd ?? Infinity).toBeLessThan(btc[0]?.volume24hUsd ?? 0);
    }
  });
});

describe("generateSandboxMarket: edge cases at fixed places", () => {
  const seeds = ["sandbox", "client-a", "x"];

  it(`marks ${staleVenue} stale with frozen last-good snapshots; the others are fresh`, () => {
    const market = generateSandboxMarket(AT);
    const stale = market.venues.filter((venue) => venue.status === "stale");
    expect(stale.map((venue) => venue.id)).toEqual([staleVenue]);
    const lastSuccess = Date.parse(stale[0]?.lastSuccessAt ?? "");
    const lagMinutes = (Date.parse(market.asOf) - lastSuccess) / 60_000;
    expect(lagMinutes).toBeGreaterThanOrEqual(10);
    expect(lagMinutes).toBeLessThan(40);
    for (const venue of market.venues.filter((v) => v.status === "ok")) expect(venue.lastSuccessAt).toBe(market.asOf);
    for (const s of market.snapshots) {
      expect(s.observedAt, key(s)).toBe(s.exchange === staleVenue ? lastSuccess : Date.parse(market.asOf));
    }
    // Within one outage the stale venue's numbers stand still while the others move.
    const next = generateSandboxMarket(NEXT_MINUTE);
    const onVenue = (m: SandboxMarket, venue: string) => JSON.stringify(m.snapshots.filter((s) => s.exchange === venue));
    expect(next.venues.find((v) => v.id === staleVenue)?.lastSuccessAt).toBe(stale[0]?.lastSuccessAt);
    expect(onVenue(next, staleVenue)).toBe(onVenue(market, staleVenue));
    expect(onVenue(next, "binance")).not.toBe(onVenue(market, "binance"));
  });

  it(`${negativeFunding.base} is negative on every venue, most negative on ${negativeFunding.venue}, at any minute and seed`, () => {
    for (const seed of seeds) {
      for (const at of SAMPLE_MINUTES) {
        const legs = snapshotsOf(generateSandboxMarket(at, { seed, assets: SANDBOX_MIN_ASSETS }), negativeFunding.base);
        expect(legs.map((s) => s.exchange)).toEqual([...negativeFunding.venues]);
        for (const s of legs) expect(s.fundingRate ?? 0).toBeLessThan(0);
        const lowest = legs.reduce((a, b) => (rate8h(b) < rate8h(a) ? b : a));
        expect(lowest.exchange).toBe(negativeFunding.venue);
      }
    }
  });

  it(`${singleVenue.base} is listed on ${singleVenue.venue} only`, () => {
    for (const seed of seeds) {
      const legs = snapshotsOf(generateSandboxMarket(AT, { seed }), singleVenue.base);
      expect(legs.map((s) => s.exchange)).toEqual([singleVenue.venue]);
    }
  });

  it(`${hourlyFunding.base} settles hourly on ${hourlyFunding.hourlyVenues.join(" and ")} and 8-hourly on okx`, () => {
    const legs = snapshotsOf(generateSandboxMarket(AT), hourlyFunding.base);
    expect(Object.fromEntries(legs.map((s) => [s.exchange, s.fundingIntervalHours]))).toEqual({
      binance: 1,
      bybit: 1,
      okx: 8,
      hyperliquid: 1,
    });
  });

  it(`${bundled.base} trades per ${bundled.multiplier} tokens on some venues and per token elsewhere, same unit price`, () => {
    const legs = snapshotsOf(generateSandboxMarket(AT), bundled.base);
    expect(Object.fromEntries(legs.map((s) => [s.exchange, s.venueBase]))).toEqual({
      ...Object.fromEntries(SANDBOX_VENUE_IDS.map((venue) => [venue, "PEPE"])),
      binance: "1000PEPE",
      bybit: "1000PEPE",
      hyperliquid: "kPEPE",
    });
    for (const s of legs) expect(s.contractMultiplier).toBe(s.venueBase === "PEPE" ? 1 : bundled.multiplier);
    const fresh = legs.filter((s) => s.exchange !== staleVenue);
    const marks = fresh.map(unitMark);
    expect(Math.max(...marks) / Math.min(...marks)).toBeLessThan(1.002);
    expect(fresh.find((s) => s.exchange === "binance")?.markPrice ?? 0).toBeGreaterThan(0.005);
  });

  it("keeps the edge-case assets when asked for fewer assets, and rejects impossible counts", () => {
    const small = generateSandboxMarket(AT, { assets: SANDBOX_MIN_ASSETS + 3 });
    expect(bases(small).size).toBe(SANDBOX_MIN_ASSETS + 3);
    for (const base of ["BTC", "ETH", negativeFunding.base, singleVenue.base, hourlyFunding.base, bundled.base]) {
      expect(bases(small).has(base), base).toBe(true);
    }
    // A subset is the same market, not a different one.
    const full = new Map(generateSandboxMarket(AT).snapshots.map((s) => [key(s) + s.base, s]));
    for (const s of small.snapshots) expect(s).toEqual(full.get(key(s) + s.base));
    for (const bad of [SANDBOX_MIN_ASSETS - 1, SANDBOX_ASSET_COUNT + 1, 10.5, Number.NaN]) {
      expect(() => generateSandboxMarket(AT, { assets: bad })).toThrow(RangeError);
    }
    expect(() => generateSandboxMarket(new Date("not a date"))).toThrow(RangeError);
  });
});
