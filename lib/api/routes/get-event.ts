import { z } from "zod";
import { publicEventSchema } from "@/lib/events/event-types";
import { readEvent } from "@/lib/events/read-events";
import { KEY_MODES } from "@/lib/keys/mode";
import { eventIdParams } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/events/:id — one change event by its id.
export const getEventRoute = defineRoute({
  method: "GET",
  path: "/v1/events/:id",
  operationId: "getEvent",
  summary: "Get a change event",
  description:
    "One event of the log as GET /v1/events lists it: of the key's mode, or one of your account's own `alert.triggered` events. " +
    "Another mode's, another account's, an unknown id or one older than the events still kept (30 days by default) is 404. " +
    "A test event's id (POST /v1/webhook-endpoints/{id}/test) names no event of the log: 404 too.",
  tag: "Events",
  permission: "opportunities:read",
  params: eventIdParams,
  data: publicEventSchema,
  meta: z.object({ mode: z.enum(KEY_MODES).describe("The key's mode: whose events these are.") }),
  // The contract tests' server writes one live event before anything else (tests/support/client-test-server.ts).
  example: { params: { id: "evt_0000000000000001" } },
  handler: async ({ actor, params, services }) => ({
    data: await readEvent(await services.db(), actor, params.id),
    meta: { mode: actor.mode },
  }),
});
