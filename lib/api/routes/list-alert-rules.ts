import { listAlertRules } from "@/lib/alerts/alert-rules";
import { alertRuleSchema } from "@/lib/alerts/alert-schema";
import { defineRoute } from "../route";
import { alertRules, listOf } from "./mode-resources";

// GET /v1/alert-rules — the account's alert rules of the key's mode.
export const listAlertRulesRoute = defineRoute({
  method: "GET",
  path: "/v1/alert-rules",
  operationId: "listAlertRules",
  summary: "List your alert rules",
  description: "The account's alert rules of the key's mode (live keys the live ones, test keys the test ones), oldest first.",
  tag: "Alerts",
  permission: "opportunities:read",
  ...listOf(alertRules, alertRuleSchema, listAlertRules),
});
