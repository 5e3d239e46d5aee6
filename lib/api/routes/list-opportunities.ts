import { opportunitiesQuery, queryOpportunities } from "@/lib/market/opportunities/opportunity-query";
import { servedOpportunitySchema } from "@/lib/market/model/types";
import { DEFAULT_HOLDING_DAYS, DEFAULT_TAKER_FEE } from "@/lib/market/model/apr";
import { marketMetaSchema, pageSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/opportunities — ranked funding-rate arbitrage opportunities, filtered and paged.
export const listOpportunitiesRoute = defineRoute({
  method: "GET",
  path: "/v1/opportunities",
  operationId: "listOpportunities",
  summary: "List ranked funding-rate arbitrage opportunities",
  description:
    "Pairs of perpetual futures on two exchanges where being long on one and short on the other collects a funding spread. " +
    "`apr` is the gross funding APR in percent per year, `net_apr` the same after the taker-fee round trip: four taker fills " +
    `(entry and exit on both legs) spread over a ${DEFAULT_HOLDING_DAYS}-day holding period, at each venue's published base-tier ` +
    `taker fee (${DEFAULT_TAKER_FEE * 100} % where none is known); no parameter changes these here (quotes and simulations do). ` +
    "Sorted by `apr` descending unless `sort` says otherwise. " +
    "A leg whose data is older than three ingestion intervals is still listed, with `stale: true` on the leg and the item. " +
    "Each leg carries `observed_at`, its `age_seconds` at the moment of the answer and its `transport` (`stream` or `poll`).",
  tag: "Opportunities",
  permission: "opportunities:read",
  query: opportunitiesQuery,
  data: pageSchema(servedOpportunitySchema, opportunitiesQuery),
  meta: marketMetaSchema,
  example: { query: { limit: "5", min_apr: "10" } },
  cached: true,
  handler: async ({ actor, query, services }) => {
    const market = services.market(actor.mode);
    const snapshot = await market.opportunities();
    const page = queryOpportunities(snapshot, query);
    const freshness = { at: Date.now(), staleAfterMs: market.venueStaleAfterMs };
    return {
      dataJson: snapshot.pageJson(page, freshness),
      tagJson: snapshot.pageTagJson(page, freshness),
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode },
      // The stale flags and ages are judged now; the answer is rebuilt when a leg turns stale, or a
      // second on. Its ETag leaves the ages out, so a poller's 304s last while only they move.
      validUntil: snapshot.validUntil(page.items, freshness),
    };
  },
});
