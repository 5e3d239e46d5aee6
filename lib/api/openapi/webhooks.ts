import { TYPED_EVENT_SCHEMAS } from "@/lib/events/event-data";
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, type EventType } from "@/lib/events/event-types";

type JsonObject = Record<string, unknown>;

/** The component name of one type's event, e.g. `OpportunityOpenedEvent` for `opportunity.opened`. */
export function eventSchemaName(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("")}Event`;
}

/** The typed event schemas to register as components, by name (one per type in EVENT_TYPES). */
export function typedEventComponents() {
  return EVENT_TYPES.map((type) => ({ name: eventSchemaName(type), schema: TYPED_EVENT_SCHEMAS[type] }));
}

/** `Event`: one of the typed events, told apart by `type`, so a generated client narrows `data` by it. */
export function eventUnionSchema(): JsonObject {
  return {
    description: "An event as GET /v1/events lists it, the stream sends it and a webhook POSTs it: `data` depends on `type`.",
    oneOf: EVENT_TYPES.map((type) => ({ $ref: `#/components/schemas/${eventSchemaName(type)}` })),
    discriminator: {
      propertyName: "type",
      mapping: Object.fromEntries(EVENT_TYPES.map((type) => [type, `#/components/schemas/${eventSchemaName(type)}`])),
    },
  };
}

/** The Standard Webhooks headers every delivery carries (lib/webhooks/webhook-signature.ts). */
const SIGNATURE_HEADERS = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The delivery's id: the same on every retry of it, so a receiver can drop a repeat.",
    schema: { type: "string" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix epoch seconds of this attempt. Refuse one more than 5 minutes away from your clock (a replay).",
    schema: { type: "string", pattern: "^\\d+$" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the base64 " +
      "decoding of the endpoint's secret after `whsec_` (Standard Webhooks). Two during a secret roll's overlap; any one matching verifies.",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$" },
  },
] as const;

/**
 * The document's `webhooks` (OpenAPI 3.1): one POST per event type a webhook can carry, its body
 * that type's event and its headers the Standard Webhooks signature, from the same schemas the
 * writers use, so every type in WEBHOOK_EVENT_TYPES is described as soon as it exists.
 */
export function webhooksSection(): JsonObject {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `${eventSchemaName(type)[0]!.toLowerCase()}${eventSchemaName(type).slice(1)}Webhook`,
          summary: `${type}`,
          description:
            type === "alert.triggered"
              ? "POSTed to the endpoints an alert rule names (alert-rules' `endpoint_ids`), whatever types they subscribe to."
              : `POSTed to each enabled endpoint of the event's mode subscribing to \`${type}\`.`,
          tags: ["Webhooks"],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            description: "The event, as GET /v1/events lists it.",
            content: { "application/json": { schema: { $ref: `#/components/schemas/${eventSchemaName(type)}` } } },
          },
          responses: {
            "2XX": { description: "Received. Any other answer, or none within the timeout, is retried with backoff." },
          },
        },
      },
    ]),
  );
}
