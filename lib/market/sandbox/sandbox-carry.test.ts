import { describe, expect, it } from "vitest";
import { carryOpportunitySchema } from "../carry/carry-opportunity";
import { spotLegSchema } from "../carry/spot-leg";
import { generateSandboxMarket } from "./generate-sandbox-market";
import { annualisedBorrowPct } from "../carry/spot-leg";
import { sandboxBorrowRates, sandboxCarrySnapshot, sandboxSpotLegs } from "./sandbox-carry";

const at = new Date("2026-12-04T12:00:30Z");
const market = generateSandboxMarket(at);

describe("the sandbox's spot legs", () => {
  const legs = sandboxSpotLegs(market.snapshots, at);

  it("lists a USDT spot market per spot venue and crypto asset, priced within 15 bps of its perpetual", () => {
    expect(new Set(legs.map((leg) => leg.exchange))).toEqual(new Set(["binance", "bybit", "okx", "gate", "bitget", "kucoinfutures"]));
    for (const leg of legs) {
      expect(spotLegSchema.parse(leg)).toEqual(leg);
      const perp = market.snapshots.find((s) => s.exchange === leg.exchange && s.base === leg.base)!;
      const perpPrice = perp.markPrice! / perp.contractMultiplier;
      expect(Math.abs(leg.price / perpPrice - 1), `${leg.exchange} ${leg.market}`).toBeLessThanOrEqual(0.0015 + 1e-9);
    }
    // Most, not all, lend their asset, at up to ~17.5 % a year.
    const lent = legs.filter((leg) => leg.borrow !== null);
    expect(lent.length / legs.length).toBeGreaterThan(0.5);
    expect(lent.length).toBeLessThan(legs.length);
    for (const { borrow } of lent) expect(borrow!.rate * 8760).toBeLessThanOrEqual(0.1752);
  });

  it("is the same for the same minute, and moves from one minute to the next", () => {
    expect(sandboxSpotLegs(market.snapshots, at)).toEqual(legs);
    const later = new Date(at.getTime() + 60_000);
    const next = sandboxSpotLegs(generateSandboxMarket(later).snapshots, later);
    expect(next.map((leg) => leg.market)).toEqual(legs.map((leg) => leg.market));
    expect(next.map((leg) => leg.price)).not.toEqual(legs.map((leg) => leg.price));
  });
});

describe("the sandbox's carry set", () => {
  it("ranks both sides of the trade with sensible values, of the minute's moment", () => {
    const snapshot = sandboxCarrySnapshot(at);
    expect(snapshot.asOf).toBe("2026-12-04T12:00:00.000Z");
    expect(snapshot.sample).toBe(false);
    const items = snapshot.allItems();
    expect(new Set(items.map((item) => item.type))).toEqual(new Set(["spot_perp", "perp_spot"]));
    for (const item of items) {
      expect(carryOpportunitySchema.parse(item)).toEqual(item);
      expect(Math.abs(item.apr), item.id).toBeLessThan(1_000);
      expect(item.net_apr, item.id).toBeLessThan(item.apr);
      if (item.type === "perp_spot") expect(item.borrow_apr).not.toBeNull();
    }
    // Same-venue legs are observed together: their basis is given, within the sandbox's ±15 bps.
    const sameVenue = items.filter((item) => item.spot.exchange === item.perp.exchange);
    expect(sameVenue.length).toBeGreaterThan(0);
    for (const item of sameVenue) if (item.basis_bps !== null) expect(Math.abs(item.basis_bps)).toBeLessThanOrEqual(16);
    expect(sandboxCarrySnapshot(at)).toBe(snapshot);
  });
});

describe("the sandbox's borrow-rate history", () => {
  const HOUR = 3_600_000;
  const legs = sandboxSpotLegs(market.snapshots, at);

  it("is each hour's rate as a spot leg of the hour's last minute states it, for the 7 days kept", () => {
    const lender = legs.find((leg) => leg.borrow !== null)!;
    const rates = sandboxBorrowRates(lender.exchange, lender.base, new Date(at.getTime() - 30 * 24 * HOUR), at);
    // 168 whole hours before 12:00, and the hour in progress at its rate so far.
    expect(rates).toHaveLength(169);
    expect(rates[0]!.time).toBe(Date.parse("2026-11-27T12:00:00Z"));
    expect(rates.at(-1)).toEqual({ time: Date.parse("2026-12-04T12:00:00Z"), aprPct: annualisedBorrowPct(lender.borrow!.rate, "hour") });
    const lastMinuteOf11 = new Date("2026-12-04T11:59:00Z");
    const then = sandboxSpotLegs(generateSandboxMarket(lastMinuteOf11).snapshots, lastMinuteOf11).find((leg) => leg.exchange === lender.exchange && leg.base === lender.base)!;
    expect(rates.at(-2)).toEqual({ time: Date.parse("2026-12-04T11:00:00Z"), aprPct: annualisedBorrowPct(then.borrow!.rate, "hour") });
    expect(new Set(rates.map((r) => r.aprPct)).size).toBeGreaterThan(1);
  });

  it("is empty where the venue does not lend the asset or has no spot market", () => {
    const notLending = legs.find((leg) => leg.borrow === null)!;
    expect(sandboxBorrowRates(notLending.exchange, notLending.base, new Date(at.getTime() - 24 * HOUR), at)).toEqual([]);
    expect(sandboxBorrowRates("hyperliquid", "BTC", new Date(at.getTime() - 24 * HOUR), at)).toEqual([]);
  });
});
