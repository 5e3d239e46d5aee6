import { z } from "zod";
import { KEY_MODES } from "@/lib/keys/mode";
import { MAX_OFFSET } from "@/lib/query-params";
import { resourceIdParam } from "@/lib/validation";

/**
 * The list payload: one page of `items` and where it sits in the whole
 * result. `query` is the route's query schema: the page's `limit` and `offset` echo what it
 * accepted, so their bounds are read from it rather than repeated.
 */
export function pageSchema<T extends z.ZodType>(item: T, query: z.ZodObject) {
  const maxLimit = (z.toJSONSchema(query.shape.limit as z.ZodType, { io: "output" }) as { maximum?: unknown }).maximum;
  if (typeof maxLimit !== "number") throw new Error("pageSchema: the query's limit has no maximum");
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative().describe("Items matching the request, over all pages."),
    limit: z.number().int().min(1).max(maxLimit).describe("The page size used."),
    offset: z.number().int().min(0).max(MAX_OFFSET).describe("Items skipped before this page."),
    has_more: z.boolean().describe("True when another page follows: request offset + limit."),
  });
}

/** The `meta` fields every market-data route adds, so a caller can tell sandbox from live data. */
export const marketMetaSchema = z.object({
  data_as_of: z.iso.datetime().nullable().describe("ISO 8601 UTC of the ingestion round the data comes from; null before the first one."),
  sample: z.boolean().describe("True while the service serves its bundled sample market instead of a live ingestion."),
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys; test for svc_sk_test_ keys, which see the deterministic sandbox."),
});

/** The `meta` of the portfolio routes. */
export const portfolioMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys; test for svc_sk_test_ keys, whose portfolio is the sandbox's and kept apart."),
});

/** The `meta` of the account fee routes. */
export const accountMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("The key's mode; the fees are the account's, the same for live and test keys (base tiers are the mode's market's)."),
});

/** The `meta` of the simulation routes. */
export const simulationMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys; test for svc_sk_test_ keys, whose simulations run on the sandbox and are kept apart."),
});

/** The path of the routes that name one position. */
export const positionIdParams = z.object({ id: resourceIdParam("The position's `id`, as POST /v1/portfolio/positions returned it.") });

/** The path of the route that names one simulation. */
export const simulationIdParams = z.object({ id: resourceIdParam("The simulation's `id`, as POST /v1/simulations returned it.") });

/** The path of the routes that name one webhook endpoint. */
export const webhookEndpointIdParams = z.object({ id: resourceIdParam("The endpoint's `id`, as POST /v1/webhook-endpoints returned it.") });

/** The path of the route that names one delivery of one webhook endpoint. */
export const webhookDeliveryParams = webhookEndpointIdParams.extend({
  delivery_id: resourceIdParam("The delivery's `id`, as GET /v1/webhook-endpoints/{id}/deliveries lists it (also its webhook-id header)."),
});

/** The path of the routes that name one event. */
export const eventIdParams = z.object({
  id: z
    .string()
    .regex(/^evt_\d{16}$/)
    .meta({ examples: ["evt_0000000000000001"] })
    .describe("The event's `id`, as GET /v1/events, the stream or a webhook delivered it."),
});

/** The `meta` of the webhook routes. */
export const webhookMetaSchema = z.object({
  mode: z.enum(KEY_MODES).describe("live for svc_sk_live_ keys, whose endpoints receive live events; test for svc_sk_test_ keys, whose endpoints are kept apart and receive the sandbox's."),
});
