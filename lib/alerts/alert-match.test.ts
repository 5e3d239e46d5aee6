import { describe, expect, it } from "vitest";
import { matchSubject, planAlerts, type MatchableEvent, type MatchableRule } from "./alert-match";

const T0 = new Date("2026-11-20T12:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const rule = (overrides: Partial<MatchableRule> = {}): MatchableRule => ({
  id: "rule-1",
  kind: "opportunity",
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

const opportunity = (overrides: Record<string, unknown> = {}, minutes = 0, type = "opportunity.opened"): MatchableEvent => ({
  mode: "LIVE",
  type,
  createdAt: at(minutes),
  data: {
    opportunity: {
      id: "BTC-binance-okx",
      symbol: "BTC",
      net_apr: 20,
      open_interest_usd: 5_000_000,
      long: { exchange: "binance" },
      short: { exchange: "okx" },
      persistence: { paid_share_7d: 0.8, positive_since: "2026-11-19T12:00:00.000Z" },
      ...overrides,
    },
  },
});

describe("matchSubject", () => {
  it("matches an opportunity rule without conditions on opened and updated, never on closed, and names the opportunity", () => {
    expect(matchSubject(rule(), opportunity())).toBe("BTC-binance-okx");
    expect(matchSubject(rule(), opportunity({}, 0, "opportunity.updated"))).toBe("BTC-binance-okx");
    expect(matchSubject(rule(), { ...opportunity(), type: "opportunity.closed" })).toBeNull();
  });

  it("tests symbol and both legs against exchanges", () => {
    expect(matchSubject(rule({ symbol: "BTC", exchanges: ["binance", "okx"] }), opportunity())).not.toBeNull();
    expect(matchSubject(rule({ symbol: "ETH" }), opportunity())).toBeNull();
    expect(matchSubject(rule({ exchanges: ["binance", "bybit"] }), opportunity())).toBeNull();
  });

  it("tests each minimum at its bound, and an unknown figure never meets one", () => {
    expect(matchSubject(rule({ minNetApr: 20 }), opportunity())).not.toBeNull();
    expect(matchSubject(rule({ minNetApr: 20.01 }), opportunity())).toBeNull();
    expect(matchSubject(rule({ minOpenInterestUsd: 5_000_000 }), opportunity())).not.toBeNull();
    expect(matchSubject(rule({ minOpenInterestUsd: 5_000_001 }), opportunity())).toBeNull();
    expect(matchSubject(rule({ minOpenInterestUsd: 1 }), opportunity({ open_interest_usd: null }))).toBeNull();
    expect(matchSubject(rule({ minPaidShare7d: 0.8 }), opportunity())).not.toBeNull();
    expect(matchSubject(rule({ minPaidShare7d: 0.81 }), opportunity())).toBeNull();
    expect(matchSubject(rule({ minPaidShare7d: 0 }), opportunity({ persistence: { paid_share_7d: null, positive_since: null } }))).toBeNull();
  });

  it("measures the positive run from positive_since to the event", () => {
    expect(matchSubject(rule({ minPositiveHours: 24 }), opportunity())).not.toBeNull();
    expect(matchSubject(rule({ minPositiveHours: 24.5 }), opportunity())).toBeNull();
    expect(matchSubject(rule({ minPositiveHours: 24.5 }), opportunity({}, 30))).not.toBeNull();
    expect(matchSubject(rule({ minPositiveHours: 0 }), opportunity({ persistence: { paid_share_7d: 1, positive_since: null } }))).toBeNull();
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
    expect(matchSubject(intervals, opportunity())).toBeNull();

    const stale: MatchableEvent = { mode: "LIVE", type: "venue.stale", createdAt: T0, data: { exchange: "gate" } };
    const venues = rule({ kind: "venue", exchanges: ["gate"] });
    expect(matchSubject(venues, stale)).toBe("gate");
    expect(matchSubject({ ...venues, exchanges: ["okx"] }, stale)).toBeNull();
    expect(matchSubject(venues, { ...stale, type: "venue.recovered" })).toBeNull();
  });
});

describe("planAlerts", () => {
  it("suppresses a flapping subject within the cool-down and alerts again once it has passed", () => {
    const last = new Map<string, Date>();
    const events = [opportunity({}, 0), opportunity({}, 10, "opportunity.updated"), opportunity({}, 59), opportunity({}, 60), opportunity({}, 61)];
    const alerts = planAlerts(events, [rule()], last);
    expect(alerts.map((a) => a.event.createdAt)).toEqual([at(0), at(60)]);
    // What the batch leaves in the map holds the next batch back too.
    expect(planAlerts([opportunity({}, 100)], [rule()], last)).toEqual([]);
    expect(planAlerts([opportunity({}, 120)], [rule()], last)).toHaveLength(1);
  });

  it("keeps a cool-down per rule and per subject", () => {
    const other = opportunity({ id: "BTC-binance-bybit", short: { exchange: "bybit" } }, 1);
    const alerts = planAlerts([opportunity({}, 0), other, opportunity({}, 2)], [rule(), rule({ id: "rule-2" })], new Map());
    expect(alerts.map((a) => `${a.rule.id} ${a.subject}`)).toEqual(["rule-1 BTC-binance-okx", "rule-2 BTC-binance-okx", "rule-1 BTC-binance-bybit", "rule-2 BTC-binance-bybit"]);
  });

  it("leaves events of the other mode and those written before the rule was made", () => {
    expect(planAlerts([{ ...opportunity(), mode: "TEST" }], [rule()], new Map())).toEqual([]);
    expect(planAlerts([opportunity({}, 0)], [rule({ createdAt: at(1) })], new Map())).toEqual([]);
  });
});
