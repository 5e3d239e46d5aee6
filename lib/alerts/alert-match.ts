import type { AlertKind } from "./alert-schema";

// Which market events an alert rule matches, and the cool-down: pure, so the evaluator
// (evaluate-alerts.ts) only reads and writes.

/** A rule as matching needs it (the stored row's fields). */
export interface MatchableRule {
  id: string;
  kind: string;
  symbol: string | null;
  exchanges: readonly string[];
  minNetApr: number | null;
  minPaidShare7d: number | null;
  minPositiveHours: number | null;
  minOpenInterestUsd: number | null;
  cooldownMinutes: number;
  keyMode: string;
  createdAt: Date;
}

/** A market event as matching needs it. */
export interface MatchableEvent {
  mode: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

/**
 * The event types each kind of rule looks at. Opportunity rules look at no event: they test every
 * published set's values for crossings (alert-crossings.ts), since change events carry only moves
 * of at least EVENTS_NET_APR_THRESHOLD and would miss smaller crossings.
 */
export const KIND_EVENT_TYPES: Record<AlertKind, readonly string[]> = {
  opportunity: [],
  funding_interval: ["funding_interval.changed"],
  venue: ["venue.stale"],
  carry: ["carry_opportunity.opened", "carry_opportunity.updated"],
};

const within = (exchanges: readonly string[], exchange: string) => exchanges.length === 0 || exchanges.includes(exchange);

/**
 * The subject a rule matches `event` for, or null when it does not: the interval change's
 * `exchange:market`, or the stale venue. Conditions a rule leaves unset (null, no exchanges) test nothing.
 */
export function matchSubject(rule: MatchableRule, event: MatchableEvent): string | null {
  if (!(KIND_EVENT_TYPES[rule.kind as AlertKind] ?? []).includes(event.type)) return null;
  switch (rule.kind) {
    case "funding_interval": {
      const change = (event.data as { change: { exchange: string; market: string; symbol: string } }).change;
      if (rule.symbol !== null && change.symbol !== rule.symbol) return null;
      if (!within(rule.exchanges, change.exchange)) return null;
      return `${change.exchange}:${change.market}`;
    }
    case "venue": {
      const exchange = (event.data as { exchange: string }).exchange;
      return within(rule.exchanges, exchange) ? exchange : null;
    }
    case "carry": {
      const o = (event.data as { opportunity: { id: string; symbol: string; net_apr: number; spot: { exchange: string }; perp: { exchange: string } } }).opportunity;
      if (rule.symbol !== null && o.symbol !== rule.symbol) return null;
      if (!within(rule.exchanges, o.spot.exchange) || !within(rule.exchanges, o.perp.exchange)) return null;
      if (rule.minNetApr !== null && o.net_apr < rule.minNetApr) return null;
      return o.id;
    }
    default:
      return null;
  }
}

/** The key a cool-down is kept under: one per rule and subject. */
export const cooldownKey = (ruleId: string, subject: string) => `${ruleId}\u0000${subject}`;

export interface PlannedAlert<E extends MatchableEvent, R extends MatchableRule> {
  event: E;
  rule: R;
  subject: string;
}

/**
 * The alerts a batch of events (oldest first) raises: for each rule and event of its mode written
 * since it was made and matching it, one
 * alert unless the same rule alerted on the same subject less than its cool-down before (by the
 * events' own times, so a replay after a crash decides alike). `lastAlerted` holds the last alert
 * per cooldownKey and is updated in place, so the caller stores what it holds afterwards.
 */
export function planAlerts<E extends MatchableEvent, R extends MatchableRule>(
  events: readonly E[],
  rules: readonly R[],
  lastAlerted: Map<string, Date>,
): PlannedAlert<E, R>[] {
  const alerts: PlannedAlert<E, R>[] = [];
  // Each event is tested against the rules of kinds that look at its type only: thousands of rules
  // of other kinds cost nothing per event.
  const byType = new Map<string, R[]>();
  for (const rule of rules) {
    for (const type of KIND_EVENT_TYPES[rule.kind as AlertKind] ?? []) {
      const list = byType.get(type);
      if (list) list.push(rule);
      else byType.set(type, [rule]);
    }
  }
  for (const event of events) {
    for (const rule of byType.get(event.type) ?? []) {
      // A rule watches its own mode's market, from when it was made.
      if (rule.keyMode !== event.mode || rule.createdAt > event.createdAt) continue;
      const subject = matchSubject(rule, event);
      if (subject === null) continue;
      const key = cooldownKey(rule.id, subject);
      const last = lastAlerted.get(key);
      if (last && event.createdAt.getTime() - last.getTime() < rule.cooldownMinutes * 60_000) continue;
      lastAlerted.set(key, event.createdAt);
      alerts.push({ event, rule, subject });
    }
  }
  return alerts;
}
