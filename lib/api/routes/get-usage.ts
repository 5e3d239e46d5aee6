import { z } from "zod";
import { readAccountUsage } from "@/lib/usage/read-account-usage";
import { DEFAULT_BUCKETS, MAX_SPAN_TEXT, resolveUsageRange, USAGE_GRANULARITIES, USAGE_RETENTION_DAYS } from "@/lib/usage/usage-range";
import { usageReportSchema } from "@/lib/usage/usage-report";
import { dateOrDateTimeText } from "@/lib/validation";
import { defineRoute } from "../route";

const instant = dateOrDateTimeText("Must be an ISO 8601 date or date-time, e.g. 2026-11-21T00:00:00Z").transform((text) => new Date(text));

// The range's own bounds relate two parameters (and the clock), which JSON Schema cannot say: the
// descriptions say them.
export const usageQuery = z.strictObject({
  granularity: z
    .enum(USAGE_GRANULARITIES, `Must be one of: ${USAGE_GRANULARITIES.join(", ")}`)
    .default("hour")
    .describe("Bucket size: `hour` or `day` (UTC days)."),
  from: instant
    .optional()
    .describe(
      "Start of the range, inclusive: the hour or day holding it is the first bucket. Not in the future when `to` is not " +
        `given; default: ${DEFAULT_BUCKETS.hour} hours or ${DEFAULT_BUCKETS.day} days before \`to\`.`,
    ),
  to: instant
    .optional()
    .describe(
      "End of the range, exclusive: after `from`, and at most " +
        `${MAX_SPAN_TEXT.hour} (hour granularity) or ${MAX_SPAN_TEXT.day} (day) of buckets from it; default: now (the current ` +
        `hour or day, still in progress, is the last bucket), or ${DEFAULT_BUCKETS.hour} hours or ${DEFAULT_BUCKETS.day} days after \`from\` if that is earlier.`,
    ),
});

// GET /v1/usage — requests made with the account's keys per hour or day, per key and per route, and each key's busiest minute.
export const getUsageRoute = defineRoute({
  method: "GET",
  path: "/v1/usage",
  operationId: "getUsage",
  summary: "Read the account's API usage",
  description:
    "Requests made with every key of the calling key's account, live and test alike, per hour or per UTC day: successes " +
    "(2xx and 304), client errors (4xx other than 429), requests refused by the rate limit (429) and server errors, for the " +
    "account and for each key, with totals per route. Each key also has its busiest minute (`peak_per_minute`) beside its " +
    `limit. Without parameters: the last ${DEFAULT_BUCKETS.hour} hours. A range may span at most ${MAX_SPAN_TEXT.hour} by the ` +
    `hour or ${MAX_SPAN_TEXT.day} by the day (a longer one is a 400 naming the field); usage is kept ${USAGE_RETENTION_DAYS} days. ` +
    "Requests are counted off the request path and appear within seconds; this request itself counts too.",
  tag: "Usage",
  permission: "opportunities:read",
  query: usageQuery,
  data: usageReportSchema,
  example: { query: { granularity: "day" } },
  handler: async ({ actor, query, services }) => {
    const range = resolveUsageRange(query);
    const report = await readAccountUsage(services, actor, range);
    return { data: report };
  },
});
