import { z } from "zod";
import { deleteAlertRule } from "@/lib/alerts/alert-rules";
import { alertMetaSchema, alertRuleIdParams } from "@/lib/alerts/alert-schema";
import { defineRoute } from "../route";

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
  params: alertRuleIdParams,
  data: z.object({ id: z.string().describe("The deleted rule's id."), deleted: z.literal(true) }),
  meta: alertMetaSchema,
  example: { params: { id: "ALERT_RULE_ID" }, createdBy: "createAlertRule" },
  handler: async ({ actor, params, services, origin }) => ({
    data: await deleteAlertRule(services, actor, params.id, origin),
    meta: { mode: actor.mode },
  }),
});
