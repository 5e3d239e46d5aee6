import { z } from "zod";
import { carryOpportunitySchema } from "@/lib/market/carry/carry-opportunity";
import { carryOpportunityById } from "@/lib/market/carry/carry-query";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/carry-opportunities/:id — one carry opportunity of the current carry set.
export const getCarryOpportunityRoute = defineRoute({
  method: "GET",
  path: "/v1/carry-opportunities/:id",
  operationId: "getCarryOpportunity",
  summary: "Get one spot–perpetual carry opportunity",
  description:
    "The carry opportunity as listed by GET /v1/carry-opportunities. An id that is not a carry id " +
    "(`<asset>-<spot_perp|perp_spot>-<long exchange>-<short exchange>`) gets 400 VALIDATION_ERROR; a well-formed id that is not in " +
    "the current carry set gets 404 NOT_FOUND.",
  tag: "Opportunities",
  permission: "opportunities:read",
  params: z.object({ id: z.string().describe("The carry opportunity's `id` as listed, e.g. BTC-spot_perp-binance-bybit.") }),
  data: carryOpportunitySchema,
  meta: marketMetaSchema,
  example: { params: { id: "BTC-spot_perp-binance-bybit" } },
  cached: true,
  cachedOn: "carry",
  handler: async ({ actor, params, services }) => {
    const snapshot = await services.market(actor.mode).carryOpportunities();
    const item = carryOpportunityById(snapshot, params.id);
    return { data: item, meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode } };
  },
});
