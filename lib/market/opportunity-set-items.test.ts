import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { computeOpportunities } from "./apr";
import { packItems, unpackItems } from "./opportunity-set-items";
import { UNKNOWN_PERSISTENCE } from "./types";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";

const { opportunities } = computeOpportunities([
  makeSnapshot({ exchange: "binance", fundingRate: 0.0001, fundingIntervalHours: 8, markPrice: 100 }),
  makeSnapshot({ exchange: "okx", market: "BTC/USDT:USDT", fundingRate: -0.0002, fundingIntervalHours: 4, markPrice: 100.5 }),
]);

describe("a published set's stored items", () => {
  it("round-trip through the packed form, much smaller than the JSON", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ ...opportunities[0]!, id: `A${i}-binance-okx` }));
    const packed = packItems(many);
    expect(packed.length).toBeLessThan(JSON.stringify(many).length / 5);
    expect(unpackItems(packed)).toEqual(many);
  });

  it("write each leg once however many pairs it is in, and share it again when read", () => {
    const venues = ["binance", "bybit", "okx", "bitget", "gate"];
    const { opportunities: pairs } = computeOpportunities(venues.map((exchange, i) => makeSnapshot({ exchange, fundingRate: 0.0001 * i })));
    expect(pairs).toHaveLength(10);
    const packed = packItems(pairs);
    const stored = JSON.parse(gunzipSync(packed).toString("utf8")) as { format: number; legs: unknown[]; rows: unknown[][] };
    expect(stored.format).toBe(2);
    expect(stored.legs).toHaveLength(5);
    const read = unpackItems(packed);
    expect(read).toEqual(pairs);
    expect(read.map((o) => Object.keys(o))).toEqual(pairs.map((o) => Object.keys(o)));
    const binanceLegs = read.flatMap((o) => [o.long, o.short]).filter((leg) => leg.exchange === "binance");
    expect(binanceLegs).toHaveLength(4);
    expect(new Set(binanceLegs).size).toBe(1);
  });

  it("refuse a packed set whose row names a leg it does not have", () => {
    const [first] = opportunities;
    if (!first) throw new Error("no opportunity");
    const stored = JSON.parse(gunzipSync(packItems([first])).toString("utf8")) as { rows: unknown[][]; keys: string[] };
    stored.rows[0]![stored.keys.indexOf("short")] = 7;
    expect(() => unpackItems(gzipSync(JSON.stringify(stored)))).toThrow(/leg 7/);
  });

  it("read the plain JSON the migration carried over, and nothing as an empty set", () => {
    expect(unpackItems(new TextEncoder().encode(JSON.stringify(opportunities)))).toEqual(opportunities);
    expect(unpackItems(null)).toEqual([]);
  });

  it("read a set published before legs carried their time with no spread, for want of the legs' times", () => {
    const [current] = opportunities;
    if (!current) throw new Error("no opportunity");
    const { price_spread_unavailable_reason: _reason, ...older } = current;
    const { observed_at: _long, ...olderLong } = current.long;
    const { observed_at: _short, ...olderShort } = current.short;
    expect(current.price_spread_bps).not.toBeNull();
    const unpriced = { ...older, id: "ETH-binance-okx", long: { ...olderLong, mark_price: null }, short: olderShort, price_spread_bps: null };
    const stored = new TextEncoder().encode(JSON.stringify([{ ...older, long: olderLong, short: olderShort }, unpriced]));
    const [read, readUnpriced] = unpackItems(stored);
    expect(read).toEqual({
      ...current,
      long: { ...current.long, observed_at: null },
      short: { ...current.short, observed_at: null },
      price_spread_bps: null,
      price_spread_unavailable_reason: "observation_time_unknown",
    });
    // Fields in the documented order, the reason next to the spread, as a fresh set serialises them.
    expect(Object.keys(read ?? {})).toEqual(Object.keys(current));
    expect(readUnpriced).toMatchObject({ price_spread_bps: null, price_spread_unavailable_reason: "price_missing" });
  });

  it("read a set published before legs carried their interval source, forecast, settlement and bounds, keeping its spread", () => {
    const [current] = opportunities;
    if (!current) throw new Error("no opportunity");
    const older = (leg: typeof current.long) => {
      const { funding_interval_source: _s, funding_rate_per_hour: _h, predicted_funding_rate: _p, interval_changed_at: _i, ...rest } = leg;
      const { last_settled_rate: _r, last_settled_at: _a, rate_cap: _c, rate_floor: _f, at_cap: _t, ...kept } = rest;
      return kept;
    };
    const [read] = unpackItems(new TextEncoder().encode(JSON.stringify([{ ...current, long: older(current.long), short: older(current.short) }])));
    const unknown = { funding_interval_source: null, predicted_funding_rate: null, last_settled_rate: null, last_settled_at: null, rate_cap: null, rate_floor: null, at_cap: false, interval_changed_at: null };
    expect(read).toEqual({
      ...current,
      long: { ...current.long, ...unknown },
      short: { ...current.short, ...unknown },
    });
    expect(read?.price_spread_bps).toBe(current.price_spread_bps);
    expect(Object.keys(read?.long ?? {})).toEqual(Object.keys(current.long));
  });

  it("read a set published before items carried persistence as knowing none of it", () => {
    const [current] = opportunities;
    if (!current) throw new Error("no opportunity");
    const { persistence: _persistence, ...older } = current;
    const [read] = unpackItems(new TextEncoder().encode(JSON.stringify([older])));
    expect(read).toEqual({ ...current, persistence: UNKNOWN_PERSISTENCE });
    // Older still: no leg times and no persistence, both read as unknown in one go.
    const { observed_at: _long, ...olderLong } = current.long;
    const [oldest] = unpackItems(new TextEncoder().encode(JSON.stringify([{ ...older, long: olderLong }])));
    expect(oldest).toMatchObject({ persistence: UNKNOWN_PERSISTENCE, price_spread_unavailable_reason: "observation_time_unknown" });
  });

  it("refuse items that are not opportunities rather than serve them", () => {
    expect(() => unpackItems(new TextEncoder().encode('[{"id": "x"}]'))).toThrow();
  });
});
