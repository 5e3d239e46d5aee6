import { createAlertRule } from "@/lib/alerts/alert-rules";
import { alertMetaSchema, alertRuleInputSchema, alertRuleSchema } from "@/lib/alerts/alert-schema";
import { perPlan } from "@/lib/plans";
import { defineRoute } from "../route";

// POST /v1/alert-rules — adds an alert rule.
export const createAlertRuleRoute = defineRoute({
  method: "POST",
  path: "/v1/alert-rules",
  operationId: "createAlertRule",
  summary: "Add an alert rule",
  description:
    "A rule watches the key's mode's market from now on. `kind: opportunity` tests every published set (each live round, each " +
    "sandbox tick) and may set `symbol`, `exchanges` (both legs among them), `min_net_apr`, `min_paid_share_7d`, " +
    "`min_positive_hours` (hours since `persistence.positive_since`) and `min_open_interest_usd`: it alerts once when an opportunity " +
    "crosses into the condition (`transition: entered`) and stays quiet while it stays inside; it leaves the condition only when a " +
    "minimum is missed by more than its hysteresis margin (net APR: 1 point or 2% of the threshold, whichever is more; open " +
    "interest 2%; paid share 0.02), or the opportunity is no longer published, and with `notify_on_clear` alerts then too " +
    "(`transition: cleared`). `kind: funding_interval` matches `funding_interval.changed` and may set `symbol` and `exchanges`; " +
    "`kind: venue` matches `venue.stale` and may set `exchanges`. A condition the kind does not use is refused; a minimum on a " +
    "figure not known (null) is not met. Each alert writes an `alert.triggered` event for your account alone (GET /v1/events, " +
    "GET /v1/stream) and POSTs it to each of `endpoint_ids` (your enabled webhook endpoints of the same mode, whatever event types " +
    "they subscribe to), unless the same rule alerted on the same subject (the opportunity, the exchange's market, the venue) within " +
    "`cooldown_minutes` (default 60; 0: none). " +
    `Rules per mode: ${perPlan("alertRules", (plan) => plan.alertRules)}; one more is 403 FORBIDDEN naming the cap.`,
  tag: "Alerts",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  body: alertRuleInputSchema,
  data: alertRuleSchema,
  meta: alertMetaSchema,
  status: 201,
  location: "/v1/alert-rules/:id",
  idempotent: true,
  example: { body: { name: "BTC above 15 % net", kind: "opportunity", symbol: "BTC", min_net_apr: 15, cooldown_minutes: 120 } },
  handler: async ({ actor, body, services, origin }) => ({
    data: await createAlertRule(services, actor, body, origin),
    meta: { mode: actor.mode },
  }),
});
