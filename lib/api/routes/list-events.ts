import { z } from "zod";
import { eventsQuery } from "@/lib/events/event-query";
import { EVENT_TYPES, publicEventSchema } from "@/lib/events/event-types";
import { assertWithinRetention, readEventPage } from "@/lib/events/read-events";
import { KEY_MODES } from "@/lib/keys/mode";
import { defineRoute } from "../route";

const eventsPage = z.object({
  items: z.array(publicEventSchema),
  has_more: z.boolean().describe("True when more events follow: request again with `after` set to the last item's `id`."),
});

// GET /v1/events — the change events of the key's mode, oldest first after a cursor.
export const listEventsRoute = defineRoute({
  method: "GET",
  path: "/v1/events",
  operationId: "listEvents",
  summary: "List change events",
  description:
    "The append-only log of changes to the market the key's mode reads (live keys the live market, test keys the sandbox), " +
    "oldest first, kept 30 days by default. Each event has an `id` that sorts in the order events were written: pass the last one you " +
    "processed as `after` to get what followed, with no gap and no repeat. Types: " +
    EVENT_TYPES.map((t) => `\`${t}\``).join(", ") +
    ". `opportunity.opened` and `opportunity.updated` carry the opportunity as GET /v1/opportunities served it when the set was " +
    "published (`updated`: its net APR moved by at least the service's threshold, 5 APR points unless configured otherwise, " +
    "with `previous_net_apr`); `opportunity.closed` its id, symbol, legs and last APRs; `funding_interval.changed` the change " +
    "as GET /v1/funding-intervals lists it; `venue.stale` and `venue.recovered` the venue, its status, last success and error. " +
    "`alert.triggered` is written for your account alone when one of its alert rules (/v1/alert-rules) fires, and carries " +
    "the rule, the subject, the transition and the opportunity or matching event; other accounts never see it. " +
    "`webhook_endpoint.disabled` is written for your account alone when the service disables one of its endpoints after 3 days " +
    "of failed deliveries (an e-mail says so too), with the endpoint and since when it failed. " +
    "GET /v1/stream delivers the same events as they are written.",
  tag: "Events",
  permission: "opportunities:read",
  query: eventsQuery,
  data: eventsPage,
  meta: z.object({ mode: z.enum(KEY_MODES).describe("The key's mode: whose events these are.") }),
  handler: async ({ actor, query, services }) => {
    const db = await services.db();
    if (query.after !== undefined) await assertWithinRetention(db, query.after);
    const page = await readEventPage(db, actor, query);
    return { data: page, meta: { mode: actor.mode } };
  },
});
