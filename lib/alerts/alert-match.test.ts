import { describe, expect, it } from "vitest";
import { matchSubject, planAlerts, type MatchableEvent, type MatchableRule } from "./alert-match";

const T0 = new Date("2026-11-20T12:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const rule = (overrides: Partial<MatchableRule> = {}): MatchableRule => ({
  id: "rule-1",
  kind: "venue",
  symbol: null,
  exchanges: [],
  minNetApr: null,
  minPaidShare7d: null,
  minPositiveHours: null,
  minOpenInterestUsd: null,
  cooldownMinutes: 60,
  keyMode: "LIVE",
  createdAt: at(-1_000),
  ...overrides,
});

const stale = (exchange = "gate", minutes = 0): MatchableEvent => ({ mode: "LIVE", type: "venue.stale", createdAt: at(minutes), data: { exchange } });

describe("matchSubject", () => {
  it("matches no event for an opportunity rule: those test each published set for crossings (alert-crossings.ts)", () => {
    for (const type of ["opportunity.opened", "opportunity.updated", "opportunity.closed"]) {
      expect(matchSubject(rule(), { mode: "LIVE", type, createdAt: T0, data: { opportunity: { id: "BTC-binance-okx" } } })).toBeNull();
    }
  });

  it("matches carry opportunities opened or updated by symbol, both venues and net APR, per carry opportunity", () => {
    const opportunity = { id: "SOL-spot_perp-okx-bybit", symbol: "SOL", net_apr: 14, spot: { exchange: "okx" }, perp: { exchange: "bybit" } };
    const carry = rule({ kind: "carry" });
    const updated: MatchableEvent = { mode: "LIVE", type: "carry_opportunity.updated", createdAt: T0, data: { opportunity, previous_net_apr: 3 } };
    expect(matchSubject(carry, updated)).toBe("SOL-spot_perp-okx-bybit");
    expect(matchSubject(carry, { ...updated, type: "carry_opportunity.opened" })).toBe("SOL-spot_perp-okx-bybit");
    expect(matchSubject({ ...carry, symbol: "SOL", exchanges: ["okx", "bybit"], minNetApr: 14 }, updated)).toBe("SOL-spot_perp-okx-bybit");
    expect(matchSubject({ ...carry, symbol: "BTC" }, updated)).toBeNull();
    expect(matchSubject({ ...carry, exchanges: ["okx"] }, updated)).toBeNull();
    expect(matchSubject({ ...carry, minNetApr: 14.5 }, updated)).toBeNull();
    // A perp pair's events are not a carry rule's, nor is a carry opportunity closing.
    expect(matchSubject(carry, { ...updated, type: "opportunity.updated" })).toBeNull();
    expect(matchSubject(carry, { ...updated, type: "carry_opportunity.closed" })).toBeNull();
  });

  it("matches interval changes by symbol and exchange, per market, and stale venues by exchange", () => {
    const change: MatchableEvent = {
      mode: "LIVE",
      type: "funding_interval.changed",
      createdAt: T0,
      data: { change: { exchange: "binance", market: "BTC/USDT:USDT", symbol: "BTC" } },
    };
    const intervals = rule({ kind: "funding_interval" });
    expect(matchSubject(intervals, change)).toBe("binance:BTC/USDT:USDT");
    expect(matchSubject({ ...intervals, symbol: "ETH" }, change)).toBeNull();
    expect(matchSubject({ ...intervals, exchanges: ["okx"] }, change)).toBeNull();
    expect(matchSubject(intervals, stale())).toBeNull();

    const venues = rule({ kind: "venue", exchanges: ["gate"] });
    expect(matchSubject(venues, stale())).toBe("gate");
    expect(matchSubject({ ...venues, exchanges: ["okx"] }, stale())).toBeNull();
    expect(matchSubject(venues, { ...stale(), type: "venue.recovered" })).toBeNull();
  });
});

describe("planAlerts", () => {
  it("suppresses a flapping subject within the cool-down and alerts again once it has passed", () => {
    const last = new Map<string, Date>();
    const events = [stale("gate", 0), stale("gate", 10), stale("gate", 59), stale("gate", 60), stale("gate", 61)];
    const alerts = planAlerts(events, [rule()], last);
    expect(alerts.map((a) => a.event.createdAt)).toEqual([at(0), at(60)]);
    // What the batch leaves in the map holds the next batch back too.
    expect(planAlerts([stale("gate", 100)], [rule()], last)).toEqual([]);
    expect(planAlerts([stale("gate", 120)], [rule()], last)).toHaveLength(1);
  });

  it("keeps a cool-down per rule and per subject", () => {
    const alerts = planAlerts([stale("gate", 0), stale("okx", 1), stale("gate", 2)], [rule(), rule({ id: "rule-2" })], new Map());
    expect(alerts.map((a) => `${a.rule.id} ${a.subject}`)).toEqual(["rule-1 gate", "rule-2 gate", "rule-1 okx", "rule-2 okx"]);
  });

  it("leaves events of the other mode and those written before the rule was made", () => {
    expect(planAlerts([{ ...stale(), mode: "TEST" }], [rule()], new Map())).toEqual([]);
    expect(planAlerts([stale("gate", 0)], [rule({ createdAt: at(1) })], new Map())).toEqual([]);
  });
});
