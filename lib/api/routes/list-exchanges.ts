import { z } from "zod";
import { ingestionStatusSchema } from "@/lib/market/ingest/ingestion-status";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

/**
 * Venue health and a running round's progress change between publishes (and a venue turns stale
 * with time alone), so this answer is reused for a short while rather than until the next publish.
 */
const REUSE_MS = 2_000;

const exchangesPayload = z.object({ items: ingestionStatusSchema.shape.venues, last_round: ingestionStatusSchema.shape.last_round });

// GET /v1/exchanges — each venue's health (status, last success, markets) and the latest round's progress.
export const listExchangesRoute = defineRoute({
  method: "GET",
  path: "/v1/exchanges",
  operationId: "listExchanges",
  summary: "List exchanges and their data health",
  description:
    "Every exchange the service reads, with its status (`ok`, or `stale` when its last successful refresh is too old), " +
    "when it last succeeded, its last error and how many markets it lists, plus the latest ingestion round's progress. " +
    `The answer may be up to ${REUSE_MS / 1000} s old.`,
  tag: "Market data",
  permission: "opportunities:read",
  data: exchangesPayload,
  meta: marketMetaSchema,
  cached: true,
  handler: async ({ key, services }) => {
    const market = services.market(key.mode);
    const [status, snapshot] = await Promise.all([market.status(), market.opportunities()]);
    return {
      data: exchangesPayload.parse({ items: status.venues, last_round: status.last_round }),
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: key.mode },
      validUntil: Date.now() + REUSE_MS,
    };
  },
});
