import { z } from "zod";
import { listAlertRules } from "@/lib/alerts/alert-rules";
import { alertMetaSchema, alertRuleSchema } from "@/lib/alerts/alert-schema";
import { pageParams } from "@/lib/query-params";
import { pageSchema } from "../openapi/shared-schemas";
import { pageOf } from "@/lib/pagination";
import { defineRoute } from "../route";

const listQuery = z.strictObject({ ...pageParams(100, 20) });

// GET /v1/alert-rules — the account's alert rules of the key's mode.
export const listAlertRulesRoute = defineRoute({
  method: "GET",
  path: "/v1/alert-rules",
  operationId: "listAlertRules",
  summary: "List your alert rules",
  description: "The account's alert rules of the key's mode (live keys the live ones, test keys the test ones), oldest first.",
  tag: "Alerts",
  permission: "opportunities:read",
  query: listQuery,
  data: pageSchema(alertRuleSchema, listQuery),
  meta: alertMetaSchema,
  handler: async ({ actor, query, services }) => {
    const all = await listAlertRules(services, actor);
    return {
      data: pageOf(all, query),
      meta: { mode: actor.mode },
    };
  },
});
