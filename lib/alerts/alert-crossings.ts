// Opportunity rules fire on crossings, not on levels: pure, so evaluate-round-alerts.ts only reads
// and writes. Each published round's values are tested against each rule, and what the rule said
// last time for each opportunity (inside its condition or not) decides whether anything happened.

import type { MatchableRule } from "./alert-match";

/** An opportunity rule as crossing needs it: the fields matching reads, and whether it alerts on clearing. */
export type CrossingRule = Omit<MatchableRule, "kind" | "keyMode" | "createdAt"> & { notifyOnClear: boolean };

/** One opportunity's values in a round, as the conditions read them. */
export interface OpportunityValues {
  id: string;
  symbol: string;
  longExchange: string;
  shortExchange: string;
  netApr: number;
  openInterestUsd: number | null;
  paidShare7d: number | null;
  /** ISO 8601 start of the positive run; null when the spread is not positive. */
  positiveSince: string | null;
}

/**
 * How far a value must fall back below a minimum before a subject inside the condition leaves it
 * (hysteresis): a figure hovering at the threshold would otherwise enter and leave every round.
 * Entering always needs the minimum itself.
 * - `min_net_apr`: 1 APR point, or 2% of the threshold when that is more (net APRs move by points).
 * - `min_open_interest_usd`: 2% of the threshold.
 * - `min_paid_share_7d`: 0.02 (two hundredths of the week's settlements).
 * - `min_positive_hours`: none: the run either lasts or restarts (positive_since moves), no noise to absorb.
 * Filters on identity (symbol, exchanges) have no margin: they cannot flap.
 */
export const HYSTERESIS = {
  netApr: (min: number) => Math.max(1, Math.abs(min) * 0.02),
  openInterestUsd: (min: number) => Math.abs(min) * 0.02,
  paidShare7d: () => 0.02,
} as const;

const HOUR_MS = 3_600_000;

const within = (exchanges: readonly string[], exchange: string) => exchanges.length === 0 || exchanges.includes(exchange);

/** At least `min` (less `margin`) when a minimum is set; an unknown value (null) never meets one. */
const atLeast = (value: number | null, min: number | null, margin: (min: number) => number, inside: boolean) =>
  min === null || (value !== null && value >= min - (inside ? margin(min) : 0));

/**
 * Whether `o` meets the rule's condition at `at`: entering needs every minimum, staying needs each
 * within its hysteresis margin (`inside`: the subject was inside after the previous round).
 */
export function meetsCondition(rule: CrossingRule, o: OpportunityValues, at: Date, inside: boolean): boolean {
  if (rule.symbol !== null && o.symbol !== rule.symbol) return false;
  if (!within(rule.exchanges, o.longExchange) || !within(rule.exchanges, o.shortExchange)) return false;
  if (!atLeast(o.netApr, rule.minNetApr, HYSTERESIS.netApr, inside)) return false;
  if (!atLeast(o.openInterestUsd, rule.minOpenInterestUsd, HYSTERESIS.openInterestUsd, inside)) return false;
  if (!atLeast(o.paidShare7d, rule.minPaidShare7d, HYSTERESIS.paidShare7d, inside)) return false;
  if (rule.minPositiveHours !== null) {
    if (!o.positiveSince || at.getTime() - Date.parse(o.positiveSince) < rule.minPositiveHours * HOUR_MS) return false;
  }
  return true;
}

/** A round's values, indexed once for every rule (`indexRound`). */
export interface RoundIndex<V extends OpportunityValues = OpportunityValues> {
  /** Highest net APR first: a rule with `min_net_apr` reads only the head of it. */
  byNetApr: readonly V[];
  byId: ReadonlyMap<string, V>;
}

export function indexRound<V extends OpportunityValues>(values: readonly V[]): RoundIndex<V> {
  return { byNetApr: [...values].sort((a, b) => b.netApr - a.netApr), byId: new Map(values.map((v) => [v.id, v])) };
}

/** What a rule said after the previous round: the subjects inside, and when each last alerted. */
export interface CrossingState {
  inside: ReadonlySet<string>;
  lastAlerted: ReadonlyMap<string, Date>;
}

export interface CrossingFire<V extends OpportunityValues = OpportunityValues> {
  subject: string;
  /** `entered`: crossed into the condition; `cleared`: left it (only for `notifyOnClear` rules). */
  transition: "entered" | "cleared";
  /** Its values this round; null when it cleared by leaving the published set. */
  values: V | null;
}

export interface CrossingResult<V extends OpportunityValues = OpportunityValues> {
  fires: CrossingFire<V>[];
  /** Subjects that crossed in / out this round: the state to store (inside' = inside − left + entered). */
  entered: string[];
  left: string[];
}

/**
 * One rule against one round. A subject outside that meets the condition enters it and fires
 * once, unless the rule alerted for it less than its cool-down before (it enters all the same, so
 * it does not fire later for the same stay); a subject inside stays quiet while it meets the
 * condition within the hysteresis margin, and leaves it otherwise (or when it is no longer
 * published), firing `cleared` when the rule asks for it (no cool-down: a clear answers an alert
 * already sent). Entries in the round's order of net APR, then clears.
 */
export function evaluateCrossings<V extends OpportunityValues>(rule: CrossingRule, state: CrossingState, round: RoundIndex<V>, at: Date): CrossingResult<V> {
  const result: CrossingResult<V> = { fires: [], entered: [], left: [] };
  const cooldownMs = rule.cooldownMinutes * 60_000;
  // Only values at or above min_net_apr can enter: the sorted head is every candidate.
  for (const o of round.byNetApr) {
    if (rule.minNetApr !== null && o.netApr < rule.minNetApr) break;
    if (state.inside.has(o.id) || !meetsCondition(rule, o, at, false)) continue;
    result.entered.push(o.id);
    const last = state.lastAlerted.get(o.id);
    if (last && at.getTime() - last.getTime() < cooldownMs) continue;
    result.fires.push({ subject: o.id, transition: "entered", values: o });
  }
  for (const subject of state.inside) {
    const o = round.byId.get(subject);
    if (o && meetsCondition(rule, o, at, true)) continue;
    result.left.push(subject);
    if (rule.notifyOnClear) result.fires.push({ subject, transition: "cleared", values: o ?? null });
  }
  return result;
}
