import { describe, expect, it } from "vitest";
import { evaluateCrossings, indexRound, meetsCondition, type CrossingRule, type CrossingState, type OpportunityValues } from "./alert-crossings";

const T0 = new Date("2026-11-20T12:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const rule = (overrides: Partial<CrossingRule> = {}): CrossingRule => ({
  id: "rule-1",
  symbol: null,
  exchanges: [],
  minNetApr: 50,
  minPaidShare7d: null,
  minPositiveHours: null,
  minOpenInterestUsd: null,
  cooldownMinutes: 0,
  notifyOnClear: false,
  ...overrides,
});

const values = (netApr: number, overrides: Partial<OpportunityValues> = {}): OpportunityValues => ({
  id: "BTC-binance-okx",
  symbol: "BTC",
  longExchange: "binance",
  shortExchange: "okx",
  netApr,
  openInterestUsd: 5_000_000,
  paidShare7d: 0.8,
  positiveSince: "2026-11-19T12:00:00.000Z",
  ...overrides,
});

/** Runs a rule over rounds of one opportunity (null: not published that round), 30 s apart, carrying the state as the store would. */
function run(r: CrossingRule, rounds: readonly (number | null)[]) {
  let inside = new Set<string>();
  const lastAlerted = new Map<string, Date>();
  const fires: { round: number; transition: string }[] = [];
  rounds.forEach((netApr, i) => {
    const state: CrossingState = { inside, lastAlerted };
    const result = evaluateCrossings(r, state, indexRound(netApr === null ? [] : [values(netApr)]), at(i * 30));
    for (const fire of result.fires) {
      fires.push({ round: i, transition: fire.transition });
      if (fire.transition === "entered") lastAlerted.set(fire.subject, at(i * 30));
    }
    inside = new Set([...[...inside].filter((s) => !result.left.includes(s)), ...result.entered]);
  });
  return { fires, inside };
}

describe("evaluateCrossings", () => {
  it("fires once for a pair that stays between 185 and 216, then stays quiet", () => {
    const rounds = Array.from({ length: 20 }, (_, i) => 185 + ((i * 7) % 32));
    expect(Math.min(...rounds)).toBeGreaterThanOrEqual(185);
    expect(Math.max(...rounds)).toBeLessThanOrEqual(216);
    expect(run(rule(), rounds).fires).toEqual([{ round: 0, transition: "entered" }]);
  });

  it("fires once per crossing into the condition: 16 crossings of 50, 16 alerts, whatever their size", () => {
    // Each round moves 3 points across 50: no `opportunity.updated` (a 5-point move) would have seen any.
    const rounds = Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 48.5 : 51.5));
    const { fires } = run(rule(), rounds);
    expect(fires).toHaveLength(16);
    expect(fires.every((f) => f.transition === "entered")).toBe(true);
    expect(fires.map((f) => f.round)).toEqual(Array.from({ length: 16 }, (_, i) => 2 * i + 1));
  });

  it("clears only once the value falls beyond the hysteresis margin, and says so when the rule asks", () => {
    // 1 APR point under 50: 49.5 is still inside, 48.9 is out; back at 50 it enters again.
    const rounds = [50.5, 49.5, 50.2, 49.01, 48.9, 49.5, 50];
    expect(run(rule(), rounds).fires).toEqual([
      { round: 0, transition: "entered" },
      { round: 6, transition: "entered" },
    ]);
    expect(run(rule({ notifyOnClear: true }), rounds).fires).toEqual([
      { round: 0, transition: "entered" },
      { round: 4, transition: "cleared" },
      { round: 6, transition: "entered" },
    ]);
    // A high threshold's margin is 2% of it: 1,000 clears below 980.
    expect(run(rule({ minNetApr: 1000, notifyOnClear: true }), [1000, 985, 1001, 979.9]).fires.map((f) => f.transition)).toEqual(["entered", "cleared"]);
  });

  it("clears an opportunity that leaves the published set, and enters it again when it returns", () => {
    expect(run(rule({ notifyOnClear: true }), [60, null, 60]).fires.map((f) => `${f.round} ${f.transition}`)).toEqual(["0 entered", "1 cleared", "2 entered"]);
  });

  it("holds back an entry within the cool-down yet counts it as entered, so the same stay never fires later", () => {
    // 30 s rounds, 2 minutes' cool-down: the crossing at round 2 (60 s after the alert) is held back, the one at round 5 (150 s) is not.
    const { fires, inside } = run(rule({ cooldownMinutes: 2 }), [60, 40, 60, 60, 40, 60]);
    expect(fires.map((f) => f.round)).toEqual([0, 5]);
    expect([...inside]).toEqual(["BTC-binance-okx"]);
  });

  it("decides each opportunity alone, and reads only the candidates at or above min_net_apr", () => {
    const round = indexRound([values(70, { id: "a" }), values(30, { id: "b" }), values(55, { id: "c", symbol: "ETH" })]);
    const result = evaluateCrossings(rule({ symbol: "BTC" }), { inside: new Set(["b"]), lastAlerted: new Map() }, round, T0);
    expect(result.entered).toEqual(["a"]);
    expect(result.left).toEqual(["b"]);
  });
});

describe("meetsCondition", () => {
  it("tests symbol, both legs and each minimum; an unknown figure never meets one", () => {
    expect(meetsCondition(rule({ exchanges: ["binance", "okx"] }), values(60), T0, false)).toBe(true);
    expect(meetsCondition(rule({ exchanges: ["binance", "bybit"] }), values(60), T0, true)).toBe(false);
    expect(meetsCondition(rule({ minOpenInterestUsd: 1 }), values(60, { openInterestUsd: null }), T0, true)).toBe(false);
    expect(meetsCondition(rule({ minOpenInterestUsd: 5_050_000 }), values(60), T0, false)).toBe(false);
    expect(meetsCondition(rule({ minOpenInterestUsd: 5_050_000 }), values(60), T0, true)).toBe(true);
    expect(meetsCondition(rule({ minPaidShare7d: 0.81 }), values(60), T0, false)).toBe(false);
    expect(meetsCondition(rule({ minPaidShare7d: 0.81 }), values(60), T0, true)).toBe(true);
    expect(meetsCondition(rule({ minPositiveHours: 24 }), values(60), T0, false)).toBe(true);
    expect(meetsCondition(rule({ minPositiveHours: 24.5 }), values(60), T0, true)).toBe(false);
    expect(meetsCondition(rule({ minPositiveHours: 1 }), values(60, { positiveSince: null }), T0, false)).toBe(false);
  });
});
