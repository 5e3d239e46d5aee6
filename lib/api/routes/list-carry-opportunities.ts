import { carryOpportunitiesQuery, queryCarry } from "@/lib/market/carry/carry-query";
import { carryOpportunitySchema } from "@/lib/market/carry/carry-opportunity";
import { DEFAULT_HOLDING_DAYS, DEFAULT_TAKER_FEE } from "@/lib/market/model/apr";
import { marketMetaSchema, pageSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/carry-opportunities — ranked spot–perpetual carry opportunities, filtered and paged.
export const listCarryOpportunitiesRoute = defineRoute({
  method: "GET",
  path: "/v1/carry-opportunities",
  operationId: "listCarryOpportunities",
  summary: "List ranked spot–perpetual carry opportunities",
  description:
    "A spot market against a perpetual of the same asset, on one exchange or two: `spot_perp` holds spot and shorts the perpetual " +
    "(collects positive funding), `perp_spot` borrows the asset, sells it spot and longs the perpetual (collects negative funding, " +
    "pays the spot venue's borrow rate; listed only where that venue lends the asset). `apr` is the gross APR in percent per year, " +
    `\`net_apr\` the same after the taker fees of opening and closing both legs spread over a ${DEFAULT_HOLDING_DAYS}-day holding ` +
    `period (${DEFAULT_TAKER_FEE * 100} % where a venue's fee is unknown). \`basis_bps\` is the price basis at entry, reported beside ` +
    "the APR, not in it. Perpetual pairs are listed by GET /v1/opportunities. Sorted by `apr` descending unless `sort` says " +
    "otherwise. The set is refreshed after each ingestion round; before the first one it is empty and `data_as_of` is null.",
  tag: "Opportunities",
  permission: "opportunities:read",
  query: carryOpportunitiesQuery,
  data: pageSchema(carryOpportunitySchema, carryOpportunitiesQuery),
  meta: marketMetaSchema,
  example: { query: { limit: "5", type: "spot_perp" } },
  cached: true,
  cachedOn: "carry",
  handler: async ({ actor, query, services }) => {
    const snapshot = await services.market(actor.mode).carryOpportunities();
    return {
      data: queryCarry(snapshot, query),
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode },
    };
  },
});
