import { z } from "zod";
import { listAlertRules } from "@/lib/alerts/alert-rules";
import { alertMetaSchema, alertRuleSchema } from "@/lib/alerts/alert-schema";
import { pageParams } from "@/lib/query-params";
import { pageSchema } from "../openapi/shared-schemas";
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
  handler: async ({ key, query, services }) => {
    const all = await listAlertRules(await services.db(), key);
    const items = all.slice(query.offset, query.offset + query.limit);
    return {
      data: { items, total: all.length, limit: query.limit, offset: query.offset, has_more: query.offset + items.length < all.length },
      meta: { mode: key.mode },
    };
  },
});
