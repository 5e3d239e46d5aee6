import { describe, expect, it } from "vitest";
import { API_ROUTES } from "@/lib/api/app";
import { buildOpenApiDocument } from "@/lib/api/openapi/openapi-document";
import { eventSchemaName } from "@/lib/api/openapi/webhooks";
import { publicOrigin } from "@/lib/config/public-url";
import { EVENT_DATA_SCHEMAS, type NewEvent } from "@/lib/events/event-data";
import { EVENT_TYPES, eventId, WEBHOOK_EVENT_TYPES, type PublicEvent } from "@/lib/events/event-types";
import { carryEvents } from "@/lib/events/carry-events";
import { sandboxTickEvents } from "@/lib/events/sandbox-tick-events";
import { pickCarryColumns } from "@/lib/market/carry/carry-columns";
import { sandboxCarrySnapshot } from "@/lib/market/sandbox/sandbox-carry";
import { sandboxItems } from "@/lib/market/sandbox/sandbox-snapshot";
import { SchemaContext, validationErrors, type JsonSchema } from "@/tests/support/json-schema";

// The document's `webhooks` and `Event`, as a client generator reads them: every event type a
// webhook can carry, its payload typed by `type`, and the Standard Webhooks headers.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const document = buildOpenApiDocument(API_ROUTES, publicOrigin()) as Json;
const context = new SchemaContext(document);

/** Events of every type, as the writers make them: a sandbox tick's market events, the carry set's, both kinds of alert and an endpoint's disabling. */
function sampleEvents(): PublicEvent[] {
  const market: NewEvent[] = [
    { type: "venue.stale", data: { exchange: "gate", status: "stale", last_success_at: null, error: "timeout" } },
    { type: "venue.recovered", data: { exchange: "gate", status: "ok", last_success_at: "2026-11-20T00:00:00.000Z", error: null } },
  ];
  const wanted = ["opportunity.opened", "opportunity.updated", "opportunity.closed", "funding_interval.changed"];
  for (let minute = 1; minute < 240 && !wanted.every((t) => market.some((e) => e.type === t)); minute++) {
    const tick = sandboxTickEvents(new Date(Date.UTC(2026, 10, 20, 0, minute)), 60_000);
    // One of each type a tick gives is enough.
    for (const event of tick) if (!market.some((e) => e.type === event.type)) market.push(event);
  }
  // The carry writer's three types: one carry opportunity moved, one gone, one new.
  const { columns } = sandboxCarrySnapshot(new Date(Date.UTC(2026, 10, 20)));
  const before = pickCarryColumns(columns, [0, 1]);
  before.net_apr[0] = columns.net_apr[0]! - 10;
  market.push(...carryEvents(before, pickCarryColumns(columns, [0, 2]), 5));
  const matched = { id: eventId(1n), type: "venue.stale" as const, created_at: "2026-11-20T00:00:00.000Z", data: { exchange: "gate" } };
  const alerts: NewEvent[] = [
    { type: "alert.triggered", data: { rule: { id: "r", name: "n" }, subject: "gate", transition: "entered", opportunity: null, event: matched } },
    { type: "alert.triggered", data: { rule: { id: "r", name: "n" }, subject: "x", transition: "cleared", opportunity: null, event: null } },
  ];
  const served = sandboxItems(new Date(Date.UTC(2026, 10, 20))).items[0]!;
  const withLegs = { ...served, stale: false, long: { ...served.long, age_seconds: 4, stale: false }, short: { ...served.short, age_seconds: null, stale: false } };
  alerts.push({ type: "alert.triggered", data: { rule: { id: "r", name: "n" }, subject: served.id, transition: "entered", opportunity: withLegs, event: null } });
  const disabled: NewEvent = {
    type: "webhook_endpoint.disabled",
    data: { endpoint: { id: "e", url: "https://example.com/hooks", description: null }, reason: "failing", failing_since: "2026-11-17T00:00:00.000Z", disabled_at: "2026-11-20T00:00:00.000Z" },
  };
  return [...market, ...alerts, disabled].map((e, i) => ({ id: eventId(BigInt(i + 1)), type: e.type, mode: "test", created_at: "2026-11-20T00:00:00.000Z", data: e.data as Record<string, unknown> }));
}

describe("the OpenAPI document's webhooks", () => {
  it("describes one POST per event type a webhook carries, with the Standard Webhooks headers and the type's event as body", () => {
    expect(Object.keys(document.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = document.webhooks[type].post;
      expect(post.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      expect(post.requestBody.content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${eventSchemaName(type)}` });
      expect(document.components.schemas[eventSchemaName(type)].properties.type).toMatchObject({ const: type });
    }
  });

  it("makes Event a oneOf of the typed events, discriminated by type, so `data` is typed per type", () => {
    const event = document.components.schemas.Event;
    expect(event.oneOf).toHaveLength(EVENT_TYPES.length);
    expect(event.discriminator.propertyName).toBe("type");
    expect(Object.keys(event.discriminator.mapping)).toEqual([...EVENT_TYPES]);
    // GET /v1/events' items are that Event.
    expect(JSON.stringify(document.components.schemas.ListEventsResponse)).toContain('"#/components/schemas/Event"');
  });

  it("accepts every event the writers make under its own type's schema and Event's, and refuses it under another type's", () => {
    const events = sampleEvents();
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(EVENT_TYPES));
    for (const event of events) {
      expect(() => EVENT_DATA_SCHEMAS[event.type].parse(event.data), event.type).not.toThrow();
      const own = { $ref: `#/components/schemas/${eventSchemaName(event.type)}` };
      expect(validationErrors(context, own, event), event.type).toEqual([]);
      const matches = (document.components.schemas.Event.oneOf as JsonSchema[]).filter((s) => validationErrors(context, s, event).length === 0);
      expect(matches, event.type).toHaveLength(1);
    }
  });
});
