import { z } from "zod";
import type { KeyMode } from "@/lib/keys/mode";
import { ingestionStatusSchema, readIngestionStatus, type IngestionStatus } from "@/lib/market/ingest/ingestion-status";
import { generateSandboxMarket } from "@/lib/market/sandbox/generate-sandbox-market";
import { VENUE_NAMES } from "@/lib/market/venue-names";
import { marketMetaSchema } from "../openapi/shared-schemas";
import type { ApiRoute } from "../route";
import type { ApiServices } from "../services";
import { withApiKey } from "../with-api-key";

const exchangesPayload = z.object({ items: ingestionStatusSchema.shape.venues, last_round: ingestionStatusSchema.shape.last_round });

// GET /v1/exchanges — each venue's health (status, last success, markets) and the latest round's progress.
export const exchangesRoute: ApiRoute = {
  method: "GET",
  path: "/v1/exchanges",
  operationId: "listExchanges",
  summary: "List exchanges and their data health",
  description:
    "Every exchange the service reads, with its status (`ok`, or `stale` when its last successful refresh is too old), " +
    "when it last succeeded, its last error and how many markets it lists, plus the latest ingestion round's progress.",
  tag: "Market data",
  permission: "opportunities:read",
  data: exchangesPayload,
  meta: marketMetaSchema,
  handler: (services) =>
    withApiKey(services, { permission: "opportunities:read" }, async ({ key }) => {
      const [status, snapshot] = await Promise.all([readStatus(services, key.mode), services.opportunities(key.mode)]);
      return {
        data: exchangesPayload.parse({ items: status.venues, last_round: status.last_round }),
        meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: key.mode },
      };
    }),
};

async function readStatus(services: ApiServices, mode: KeyMode): Promise<IngestionStatus> {
  if (mode === "live") return readIngestionStatus(await services.db(), services.venueStaleAfterMs);
  const [market, snapshot] = [generateSandboxMarket(new Date()), await services.opportunities("test")];
  const markets = (id: string) => market.snapshots.filter((s) => s.exchange === id).length;
  const staleError = "sandbox: this venue is always stale, to test against";
  return {
    venues: market.venues.map((v) => ({
      id: v.id,
      name: VENUE_NAMES[v.id],
      status: v.status,
      last_success_at: v.lastSuccessAt,
      last_error: v.status === "stale" ? staleError : null,
      markets_count: markets(v.id),
    })),
    last_round: {
      id: `sandbox_${Date.parse(market.asOf) / 60_000}`,
      status: "published",
      started_at: market.asOf,
      finished_at: market.asOf,
      venues_done: market.venues.length,
      venues_total: market.venues.length,
      opportunities: snapshot.items.length,
      venues: market.venues.map((v) => ({
        exchange: v.id,
        status: v.status,
        markets: v.status === "ok" ? markets(v.id) : 0,
        error: v.status === "stale" ? staleError : null,
        duration_ms: 0,
      })),
    },
  };
}
