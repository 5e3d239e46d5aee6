import type { AlertRuleView } from "@/lib/alerts/alert-schema";

const WATCHES = { opportunity: "Opportunities entering", funding_interval: "Funding interval changes", venue: "Venues going stale", carry: "Carry opportunities" } as const;

/** A rule's kind, conditions and cool-down in words, as the Alerts page lists them. Pure. */
export function describeConditions(rule: AlertRuleView): string {
  const parts: string[] = [WATCHES[rule.kind]];
  if (rule.symbol) parts.push(rule.symbol);
  if (rule.exchanges.length) parts.push(`on ${rule.exchanges.join(", ")}`);
  if (rule.min_net_apr !== null) parts.push(`net APR ≥ ${rule.min_net_apr} %`);
  if (rule.min_paid_share_7d !== null) parts.push(`paid ≥ ${Math.round(rule.min_paid_share_7d * 100)} % of 7 days`);
  if (rule.min_positive_hours !== null) parts.push(`positive ≥ ${rule.min_positive_hours} h`);
  if (rule.min_open_interest_usd !== null) parts.push(`open interest ≥ $${rule.min_open_interest_usd.toLocaleString("en-US")}`);
  if (rule.notify_on_clear) parts.push("and leaving");
  return `${parts.join(" · ")} (cool-down ${rule.cooldown_minutes} min)`;
}
