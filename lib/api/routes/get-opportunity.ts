import { z } from "zod";
import { AppError } from "@/lib/errors";
import { fundingSettlementSchema } from "@/lib/market/model/funding-settlement";
import { historyEnd } from "@/lib/market/model/history-end";
import { servedOpportunitySchema } from "@/lib/market/model/types";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { jsonWithoutClock } from "../cached-read";
import { defineRoute } from "../route";

const HISTORY_MS = 7 * 86_400_000;
const MINUTE_MS = 60_000;

const opportunityDetail = servedOpportunitySchema.extend({
  funding_history: z.object({
    from: z.iso.datetime().describe("ISO 8601 UTC start of the history: 7 days before `to`."),
    to: z.iso
      .datetime()
      .describe("ISO 8601 UTC end of the history: the start of the UTC minute in which the answer was made (while the offline sample is served, its `data_as_of`)."),
    long: z.array(fundingSettlementSchema),
    short: z.array(fundingSettlementSchema),
  }),
});

// GET /v1/opportunities/:id — one opportunity with both legs' funding settlements of the last 7 days.
export const getOpportunityRoute = defineRoute({
  method: "GET",
  path: "/v1/opportunities/:id",
  operationId: "getOpportunity",
  summary: "Get one opportunity with its recent funding history",
  description:
    "The opportunity as listed (legs flagged `stale` as there), plus both legs' funding settlements of the last 7 days, up to the " +
    "start of the current UTC minute (while the offline sample is served, up to its `data_as_of`, where its recorded history ends). " +
    "An id that is not in the current opportunity set gets 404 NOT_FOUND.",
  tag: "Opportunities",
  permission: "opportunities:read",
  params: z.object({ id: z.string().describe("The opportunity's `id` as listed, e.g. BTC-binance-bybit.") }),
  data: opportunityDetail,
  meta: marketMetaSchema,
  example: { params: { id: "BTC-binance-bybit" } },
  cached: true,
  handler: async ({ actor, params, services }) => {
    const market = services.market(actor.mode);
    const snapshot = await market.opportunities();
    const opportunity = snapshot.byId(params.id);
    if (!opportunity) throw new AppError("NOT_FOUND", `No opportunity with id "${params.id}"`);
    const now = Date.now();
    const freshness = { at: now, staleAfterMs: market.venueStaleAfterMs };
    // The history ends at the minute's start, not at the request's moment, so the answer is the same
    // for every request of the minute (and on every server) and can be reused until the minute ends,
    // or until a leg turns stale or its age moves (a second) if that comes first.
    // The offline sample's recorded history ends at its as-of, long before now.
    const to = historyEnd(snapshot, new Date(Math.floor(now / MINUTE_MS) * MINUTE_MS));
    const from = new Date(to.getTime() - HISTORY_MS);
    const [long, short] = await Promise.all(
      [opportunity.long, opportunity.short].map((leg) => market.settlements(opportunity.symbol, leg, from, to)),
    );
    const data = opportunityDetail.parse({
      ...snapshot.served(opportunity, freshness),
      funding_history: { from: from.toISOString(), to: to.toISOString(), long, short },
    });
    return {
      data,
      // The ETag leaves the legs' ages out, as the list's does.
      tagJson: jsonWithoutClock(data),
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode },
      validUntil: Math.min(to.getTime() + MINUTE_MS, snapshot.validUntil([opportunity], freshness) ?? Infinity),
    };
  },
});
