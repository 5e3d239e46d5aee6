import { z } from "zod";
import { fundingSettlementSchema, type FundingSettlement } from "@/lib/market/funding-settlement";
import { storedLegHistory } from "@/lib/market/leg-history";
import { sandboxFundingHistory, sandboxHistoryKey } from "@/lib/market/sandbox-funding-history";
import { opportunitySchema, type OpportunityLeg } from "@/lib/market/types";
import { ApiError } from "../errors";
import { marketMetaSchema } from "../openapi/shared-schemas";
import type { ApiRoute } from "../route";
import { withApiKey } from "../with-api-key";

const HISTORY_MS = 7 * 86_400_000;

const opportunityDetail = opportunitySchema.extend({
  funding_history: z.object({
    from: z.string(),
    to: z.string(),
    long: z.array(fundingSettlementSchema),
    short: z.array(fundingSettlementSchema),
  }),
});

// GET /v1/opportunities/:id — one opportunity with both legs' funding settlements of the last 7 days.
export const opportunityRoute: ApiRoute = {
  method: "GET",
  path: "/v1/opportunities/:id",
  operationId: "getOpportunity",
  summary: "Get one opportunity with its recent funding history",
  description:
    "The opportunity as listed, plus both legs' funding settlements of the last 7 days. " +
    "An id that is not in the current opportunity set gets 404 NOT_FOUND.",
  tag: "Opportunities",
  permission: "opportunities:read",
  params: z.object({ id: z.string().describe("The opportunity's `id` as listed, e.g. BTC-binance-bybit.") }),
  data: opportunityDetail,
  meta: marketMetaSchema,
  example: { params: { id: "BTC-binance-bybit" } },
  handler: (services) =>
    withApiKey(services, { permission: "opportunities:read" }, async ({ c, key }) => {
      const id = c.req.param("id");
      const snapshot = await services.opportunities(key.mode);
      const opportunity = snapshot.items.find((o) => o.id === id);
      if (!opportunity) throw new ApiError("NOT_FOUND", `No opportunity with id "${id}"`);
      const to = new Date();
      const from = new Date(to.getTime() - HISTORY_MS);
      const legHistory = async (leg: OpportunityLeg): Promise<FundingSettlement[]> => {
        if (key.mode === "test") {
          const rows = sandboxFundingHistory(to).get(sandboxHistoryKey(leg.exchange, opportunity.symbol)) ?? [];
          return rows.filter((r) => r.market === leg.market && Date.parse(r.time) >= from.getTime());
        }
        return storedLegHistory(await services.db(), leg, from, to);
      };
      const [long, short] = await Promise.all([legHistory(opportunity.long), legHistory(opportunity.short)]);
      return {
        data: opportunityDetail.parse({
          ...opportunity,
          funding_history: { from: from.toISOString(), to: to.toISOString(), long, short },
        }),
        meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: key.mode },
      };
    }),
};
