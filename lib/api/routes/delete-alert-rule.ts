import { deleteAlertRule } from "@/lib/alerts/alert-rules";
import { defineRoute } from "../route";
import { alertRules, deleteOne } from "./mode-resources";

// DELETE /v1/alert-rules/:id — removes a rule.
export const deleteAlertRuleRoute = defineRoute({
  method: "DELETE",
  path: "/v1/alert-rules/:id",
  operationId: "deleteAlertRule",
  summary: "Delete an alert rule",
  description: "Removes the rule and its cool-downs; the alerts it raised stay on GET /v1/events until they expire. Answers the deleted rule's id.",
  tag: "Alerts",
  permission: "write",
  permissionOnPlansWithout: "opportunities:read",
  ...deleteOne(alertRules, deleteAlertRule),
});
