import { z } from "zod";
import { eventTypeSchema, MARKET_EVENT_TYPES } from "@/lib/events/event-types";
import { KEY_MODES } from "@/lib/keys/mode";
import { maxCharacters, storableText, uniqueItems } from "@/lib/validation";

// The shapes of webhook endpoints and deliveries, shared by /v1/webhook-endpoints and the web app.

// Stated as a pattern, so the document (and a client generated from it) says what a URL may look
// like: http(s), a host of letters, digits, dots and hyphens (a DNS name or an IPv4 address), an
// optional port, then anything but spaces. Whether it parses, is https and is public is checked after.
const URL_PATTERN = /^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][^\s\u0000]*)?$/;

// What the document states: https only. http:// is accepted only where the operator allows it (a
// deployment's setting, checked after the schema), which a document for every deployment cannot say.
const DOCUMENTED_URL_PATTERN = /^https:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][^\s\u0000]*)?$/;

const urlSchema = maxCharacters(z.string().regex(URL_PATTERN, "Must be an http(s) URL whose host is a DNS name or an IPv4 address"), 2_048, "At most 2,048 characters")
  .refine((text) => URL.canParse(text), "Must be an absolute URL, e.g. https://example.com/hooks")
  .meta({ pattern: DOCUMENTED_URL_PATTERN.source })
  .describe(
    "Where events are POSTed: an absolute https:// URL without credentials, whose host is not localhost nor a private, loopback or " +
      "link-local address (http:// and such addresses only where the operator allows them).",
  );

/** Subscribes an endpoint to every market event type, those added later included. */
export const WILDCARD = "*";
/** What an endpoint may subscribe to: a market event type, or `*` for all of them. */
export const subscribedTypeSchema = z.enum([...MARKET_EVENT_TYPES, WILDCARD]);

const eventTypesSchema = uniqueItems(
  z
    .array(subscribedTypeSchema, `Must be a list of event types: ${MARKET_EVENT_TYPES.join(", ")}, or ["*"]`)
    .min(1, "Choose at least one event type")
    .max(MARKET_EVENT_TYPES.length),
  "Each event type at most once",
)
  .refine((types) => !types.includes(WILDCARD) || types.length === 1, '"*" (every type) stands alone')
  .describe(
    'The market event types delivered to the endpoint, each at most once, or `["*"]` for every market event type (those added ' +
      "later too). `alert.triggered` is not among them: an alert rule chooses its endpoints.",
  );

const descriptionSchema = maxCharacters(storableText(z.string().trim()), 200, "At most 200 characters").describe("What the endpoint is for, for your own reference.");

export const endpointInputSchema = z.strictObject({
  url: urlSchema,
  event_types: eventTypesSchema,
  description: descriptionSchema.nullable().optional(),
});
export type EndpointInput = z.infer<typeof endpointInputSchema>;

export const endpointUpdateSchema = z
  .strictObject({
    url: urlSchema.optional(),
    event_types: eventTypesSchema.optional(),
    description: descriptionSchema.nullable().optional(),
    enabled: z.boolean().optional().describe("false stops deliveries; true resumes them (and clears a disable for failing)."),
  })
  .refine((update) => Object.values(update).some((value) => value !== undefined), "Give at least one of url, event_types, description, enabled")
  .meta({ minProperties: 1 });
export type EndpointUpdate = z.infer<typeof endpointUpdateSchema>;

export const ROLL_OVERLAP_MAX_HOURS = 72;
export const rollSecretSchema = z.strictObject({
  overlap_hours: z
    .number()
    .int()
    .min(0)
    .max(ROLL_OVERLAP_MAX_HOURS)
    .default(24)
    .describe("How long the previous secret keeps signing beside the new one, 0 to 72 hours (default 24)."),
});

export const testEventSchema = z.strictObject({
  type: eventTypeSchema
    .optional()
    .describe("The test event's type, any event type; default the endpoint's first event type (`opportunity.opened` for a `*` endpoint)."),
});

export const endpointSchema = z.object({
  id: z.string(),
  mode: z.enum(KEY_MODES).describe("Which events it receives: live endpoints the live market's, test endpoints the sandbox's."),
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(subscribedTypeSchema),
  enabled: z.boolean(),
  disabled_reason: z.enum(["failing"]).nullable().describe('"failing" when the service disabled it after 3 days of failed deliveries.'),
  previous_secret_expires_at: z.iso.datetime().nullable().describe("Until when the previous secret still signs, after a roll with an overlap."),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type EndpointView = z.infer<typeof endpointSchema>;

export const endpointWithSecretSchema = endpointSchema.extend({
  secret: z.string().describe("The signing secret (whsec_…): shown only in this answer. Keep it to verify the webhook-signature header."),
});

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export const attemptSchema = z.object({
  at: z.iso.datetime(),
  status_code: z.number().int().nullable().describe("The answer's HTTP status; null when there was none (refused address, timeout, connection error)."),
  error: z.string().nullable().describe("Why the attempt failed; null when it succeeded."),
  latency_ms: z.number().int(),
  response_body: z.string().nullable().describe("The first 1 KB of the answer's body."),
  manual: z.boolean().describe("A redelivery asked for by hand."),
});

export const deliverySchema = z.object({
  id: z.string().describe("Also the webhook-id header of every attempt: a receiver can drop repeats by it."),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: eventTypeSchema,
  status: z.enum(DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  next_attempt_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  attempts: z.array(attemptSchema).describe("Every attempt, newest first."),
});
export type DeliveryView = z.infer<typeof deliverySchema>;
