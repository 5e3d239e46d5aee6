import { getAlertRule } from "@/lib/alerts/alert-rules";
import { alertRuleSchema } from "@/lib/alerts/alert-schema";
import { defineRoute } from "../route";
import { alertRules, getOne } from "./mode-resources";

// GET /v1/alert-rules/:id — one alert rule.
export const getAlertRuleRoute = defineRoute({
  method: "GET",
  path: "/v1/alert-rules/:id",
  operationId: "getAlertRule",
  summary: "Get an alert rule",
  description: "One of the account's alert rules of the key's mode. Another account's, the other mode's or an unknown id is 404.",
  tag: "Alerts",
  permission: "opportunities:read",
  ...getOne(alertRules, alertRuleSchema, getAlertRule),
});
