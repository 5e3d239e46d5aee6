import { z } from "zod";
import { queryOpportunities, SORTS } from "@/lib/market/opportunity-query";
import { opportunitySchema, VENUE_IDS } from "@/lib/market/types";
import { marketMetaSchema, pageSchema } from "../openapi/shared-schemas";
import { numberParam, pageParams } from "../query";
import type { ApiRoute } from "../route";
import { withApiKey } from "../with-api-key";

export const MAX_LIMIT = 100;

export const opportunitiesQuery = z.strictObject({
  ...pageParams(MAX_LIMIT, 50),
  exchange: z
    .enum(VENUE_IDS, `Must be one of: ${VENUE_IDS.join(", ")}`)
    .optional()
    .describe("Only opportunities with a leg on this exchange (either leg)."),
  min_apr: numberParam().optional().describe("Only opportunities whose gross `apr` is at least this, in percent per year (10 = 10 %)."),
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{1,20}$/, "Must be a base asset such as BTC")
    .transform((s) => s.toUpperCase())
    .optional()
    .describe("Only this base asset, e.g. BTC (case-insensitive)."),
  sort: z
    .enum(SORTS, `Must be one of: ${SORTS.join(", ")}`)
    .default("-apr")
    .describe("Sort field; a leading - sorts descending. Ties are broken by id, so pages are stable."),
});

// GET /v1/opportunities — ranked funding-rate arbitrage opportunities, filtered and paged.
export const opportunitiesRoute: ApiRoute = {
  method: "GET",
  path: "/v1/opportunities",
  operationId: "listOpportunities",
  summary: "List ranked funding-rate arbitrage opportunities",
  description:
    "Pairs of perpetual futures on two exchanges where being long on one and short on the other collects a funding spread. " +
    "`apr` is the gross funding APR in percent per year, `net_apr` the same after the taker-fee round trip. " +
    "Sorted by `apr` descending unless `sort` says otherwise.",
  tag: "Opportunities",
  permission: "opportunities:read",
  query: opportunitiesQuery,
  data: pageSchema(opportunitySchema),
  meta: marketMetaSchema,
  example: { query: { limit: "5", min_apr: "10" } },
  handler: (services) =>
    withApiKey(services, { permission: "opportunities:read", query: opportunitiesQuery }, async ({ key, query }) => {
      const snapshot = await services.opportunities(key.mode);
      return {
        dataJson: snapshot.pageJson(queryOpportunities(snapshot, query)),
        meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: key.mode },
      };
    }),
};
