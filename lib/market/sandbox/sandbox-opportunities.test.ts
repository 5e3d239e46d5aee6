import { describe, expect, it } from "vitest";
import { computeOpportunities } from "../opportunities/rank-opportunities";
import { opportunitySchema, type Opportunity } from "../model/types";
import { SANDBOX_EDGE_CASES } from "./edge-cases";
import { generateSandboxMarket } from "./generate-sandbox-market";
import { sandboxOpportunities } from "./sandbox-opportunities";

const AT = new Date("2026-11-21T19:04:05.123Z");
const { staleVenue, negativeFunding, singleVenue, hourlyFunding, bundled } = SANDBOX_EDGE_CASES;

describe("sandboxOpportunities", () => {
  const { asOf, opportunities } = sandboxOpportunities(AT);
  const market = generateSandboxMarket(AT);

  it("is computeOpportunities over every venue's snapshots, the stale venue's last good ones included, in its order", () => {
    expect(asOf).toBe(market.asOf);
    expect(opportunities).toEqual(computeOpportunities(market.snapshots).opportunities);
    expect(opportunities.length).toBeGreaterThan(500);
    for (let i = 1; i < opportunities.length; i += 1) {
      const [a, b] = [opportunities[i - 1], opportunities[i]];
      if (!a || !b) throw new Error("unreachable");
      expect(a.apr > b.apr || (a.apr === b.apr && a.id < b.id), `${a.id} before ${b.id}`).toBe(true);
    }
  });

  it("gives items valid for opportunitySchema, with negative legs and mixed intervals among them", () => {
    for (const o of opportunities) expect(opportunitySchema.parse(o)).toEqual(o);
    expect(opportunities.some((o) => o.long.funding_rate < 0)).toBe(true);
    expect(opportunities.some((o) => o.long.funding_interval_hours !== o.short.funding_interval_hours)).toBe(true);
    expect(opportunities.some((o) => o.net_apr < 0)).toBe(true);
    expect(opportunities.some((o) => o.open_interest_usd === null)).toBe(true);
  });

  const onStaleVenue = (o: Opportunity) => o.long.exchange === staleVenue || o.short.exchange === staleVenue;

  it("prices every pair of fresh venues: all their legs of a minute are observed at its start", () => {
    for (const o of opportunities.filter((o) => !onStaleVenue(o))) {
      expect(o.price_spread_unavailable_reason, o.id).toBeNull();
      expect(o.price_spread_bps, o.id).not.toBeNull();
      expect([o.long.observed_at, o.short.observed_at]).toEqual([asOf, asOf]);
    }
  });

  it(`pairs the stale venue (${staleVenue}) at its last success, minutes before the others, so those pairs have no price spread`, () => {
    const lastSuccess = market.venues.find((v) => v.id === staleVenue)?.lastSuccessAt;
    const pairs = opportunities.filter(onStaleVenue);
    expect(pairs.length).toBeGreaterThan(100);
    for (const o of pairs) {
      const leg = o.long.exchange === staleVenue ? o.long : o.short;
      expect(leg.observed_at, o.id).toBe(lastSuccess);
      expect(o.price_spread_unavailable_reason, o.id).toBe("legs_observed_apart");
    }
  });

  it(`has no opportunity on ${singleVenue.base}, listed on one venue`, () => {
    expect(market.snapshots.some((s) => s.base === singleVenue.base)).toBe(true);
    expect(opportunities.filter((o) => o.symbol === singleVenue.base)).toEqual([]);
  });

  it(`goes long ${negativeFunding.venue} on every ${negativeFunding.base} pair it is in, well in profit`, () => {
    const all = opportunities.filter((o) => o.symbol === negativeFunding.base);
    expect(all).toHaveLength(6);
    const pairs = all.filter((o) => o.long.exchange === negativeFunding.venue || o.short.exchange === negativeFunding.venue);
    expect(pairs).toHaveLength(3);
    for (const o of pairs) {
      expect(o.id.startsWith(`${negativeFunding.base}-${negativeFunding.venue}-`)).toBe(true);
      expect(o.long.funding_rate).toBeLessThan(0);
      expect(o.apr).toBeGreaterThan(40);
      expect(o.net_apr).toBeGreaterThan(0);
    }
  });

  it(`pairs ${hourlyFunding.base}'s hourly legs with its 8-hourly one, and ${bundled.base} across bundle sizes`, () => {
    const hourly = opportunities.find((o) => o.id.includes(`${hourlyFunding.base}-`) && o.id.includes("okx"));
    expect([hourly?.long.funding_interval_hours, hourly?.short.funding_interval_hours].sort()).toEqual([1, 8]);
    const pepe = opportunities.find(
      (o) => o.symbol === bundled.base && [o.long.exchange, o.short.exchange].sort().join() === "binance,okx",
    );
    expect(pepe?.price_spread_bps ?? Infinity).toBeLessThan(20);
  });

  it("returns the same frozen result within a minute and a new one the next minute", () => {
    const again = sandboxOpportunities(new Date("2026-11-21T19:04:59.000Z"));
    expect(again).toBe(sandboxOpportunities(AT));
    expect(Object.isFrozen(again.opportunities)).toBe(true);
    expect(Object.isFrozen(again.opportunities[0])).toBe(true);
    expect(Object.isFrozen(again.opportunities[0]?.long)).toBe(true);
    expect(Object.isFrozen(again.opportunities[0]?.short)).toBe(true);
    const next = sandboxOpportunities(new Date("2026-11-21T19:05:00.000Z"));
    expect(next).not.toBe(again);
    expect(next.asOf).toBe("2026-11-21T19:05:00.000Z");
  });

  it("keeps two results: two alternating minutes stay cached, a third evicts the older", () => {
    const a = new Date("2026-06-01T00:00:00Z");
    const b = new Date("2026-06-01T00:01:00Z");
    const c = new Date("2026-06-01T00:02:00Z");
    const first = sandboxOpportunities(a);
    const second = sandboxOpportunities(b);
    expect(sandboxOpportunities(a)).toBe(first);
    expect(sandboxOpportunities(c)).not.toBe(second);
    expect(sandboxOpportunities(a)).toBe(first);
    const rebuilt = sandboxOpportunities(b);
    expect(rebuilt).not.toBe(second);
    expect(rebuilt).toEqual(second);
  });

  it("keys the cache on seed, asset count and holding period", () => {
    const base = sandboxOpportunities(AT);
    const seeded = sandboxOpportunities(AT, { seed: "other" });
    expect(seeded).not.toEqual(base);
    const longer = sandboxOpportunities(AT, { holdingDays: 30 });
    expect(longer.opportunities[0]?.apr).toBe(base.opportunities[0]?.apr);
    expect(longer.opportunities[0]?.net_apr).toBeGreaterThan(base.opportunities[0]?.net_apr ?? Infinity);
    const fewer = sandboxOpportunities(AT, { assets: 20 });
    expect(fewer.opportunities.length).toBeLessThan(base.opportunities.length);
    expect(() => sandboxOpportunities(AT, { holdingDays: 0 })).toThrow(RangeError);
  });
});
