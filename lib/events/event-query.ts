import { z } from "zod";
import { integerParam } from "@/lib/query-params";
import { EVENT_TYPES, eventSequence, type EventType } from "./event-types";

/** The largest page of GET /v1/events. */
export const EVENTS_MAX_LIMIT = 1000;

const typePattern = EVENT_TYPES.map((t) => t.replace(".", "\\.")).join("|");

/** An `evt_…` id as a query parameter, read as its sequence. */
export function eventIdParam() {
  return z
    .string()
    .regex(/^evt_\d{16}$/, "Must be an event id: evt_ and 16 digits, as an event's `id`")
    .meta({ examples: ["evt_0000000000000001"] })
    .transform((id) => eventSequence(id)!);
}

/** `types`: event types separated by commas, each once at most (repeats are folded). */
export function eventTypesParam() {
  return z
    .string()
    .regex(new RegExp(`^(${typePattern})(,(${typePattern}))*$`), `Must be event types separated by commas, each one of: ${EVENT_TYPES.join(", ")}`)
    .meta({ examples: ["opportunity.opened,opportunity.closed"] })
    .transform((text) => [...new Set(text.split(","))] as EventType[]);
}

/** The query of GET /v1/events. */
export const eventsQuery = z.strictObject({
  after: eventIdParam()
    .optional()
    .describe(
      "Only events written after this one (its `id`), oldest first: pass the last `id` you processed to resume. Without it, the " +
        "oldest events still kept (30 days by default). An id older than that is refused (400), since events after it are gone; so is one beyond the newest event written.",
    ),
  types: eventTypesParam().optional().describe("Only these event types, separated by commas, e.g. `opportunity.opened,opportunity.closed`."),
  limit: integerParam(1, EVENTS_MAX_LIMIT).default(100).describe(`Page size, 1 to ${EVENTS_MAX_LIMIT}.`),
});
export type EventsQuery = z.infer<typeof eventsQuery>;
