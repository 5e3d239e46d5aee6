import { updateAlertRule } from "@/lib/alerts/alert-rules";
import { alertRuleSchema, alertRuleUpdateSchema } from "@/lib/alerts/alert-schema";
import { defineRoute } from "../route";
import { alertRules, updateOne } from "./mode-resources";

// PATCH /v1/alert-rules/:id — changes a rule's name, conditions, endpoints, cool-down or enabled flag.
export const updateAlertRuleRoute = defineRoute({
  method: "PATCH",
  path: "/v1/alert-rules/:id",
  operationId: "updateAlertRule",
  summary: "Change an alert rule",
  description:
    "Give any of `name`, the conditions its kind uses (null or an empty `exchanges` removes one), `endpoint_ids` (replaces the list), " +
    "`cooldown_minutes` and `enabled`. The kind stays. Returns the rule as it is now.",
  tag: "Alerts",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...updateOne(alertRules, alertRuleUpdateSchema, alertRuleSchema, { enabled: false }, updateAlertRule),
});
