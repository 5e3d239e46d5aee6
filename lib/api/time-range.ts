import { queryError } from "@/lib/query-params";
import { dateOrDateTimeText } from "@/lib/validation";

const DAY_MS = 86_400_000;

/** How long a route's range may be, and what it covers without `from` and `to`. */
export interface RangeRule {
  defaultDays: number;
  maxDays: number;
}

// The year 2000 or later (lib/validation.ts), stated in the document as each format's pattern. The
// range's own bounds (not reversed, at most `maxDays`) relate two parameters, which JSON Schema
// cannot say, so the parameters' descriptions say them.
const instant = dateOrDateTimeText("Must be an ISO 8601 date or date-time, e.g. 2026-11-21T00:00:00Z").transform((text) => new Date(text));

/** The `from` and `to` query parameters of a route reading history over a range. */
export function rangeParams({ defaultDays, maxDays }: RangeRule) {
  return {
    from: instant
      .optional()
      .describe(
        `Start of the range, inclusive: not after \`to\`, at most ${maxDays} days before it, and not in the ` +
          `future when \`to\` is not given; default: ${defaultDays} days before \`to\`.`,
      ),
    to: instant
      .optional()
      .describe(
        `End of the range, inclusive: not before \`from\` and at most ${maxDays} days after it; ` +
          `default: now (while the offline sample is served, its \`data_as_of\`), or ${defaultDays} days after \`from\` if that is earlier.`,
      ),
  };
}

/**
 * The range a request asked for, defaults filled in; a 400 naming the field for a reversed range,
 * one longer than `maxDays`, or a `from` in the future with no `to` (the range would end now,
 * before it: the mistake is the `from`).
 */
export function resolveRange(query: { from?: Date; to?: Date }, rule: RangeRule, now = new Date()): { from: Date; to: Date } {
  const defaultMs = rule.defaultDays * DAY_MS;
  if (query.from && !query.to && query.from > now) throw rangeError("from", "Must not be in the future");
  const to = query.to ?? (query.from ? new Date(Math.min(now.getTime(), query.from.getTime() + defaultMs)) : now);
  const from = query.from ?? new Date(to.getTime() - defaultMs);
  if (to < from) throw rangeError("to", "Must not be before from");
  if (to.getTime() - from.getTime() > rule.maxDays * DAY_MS) {
    throw rangeError(query.to ? "to" : "from", `The range may span at most ${rule.maxDays} days`);
  }
  return { from, to };
}

function rangeError(field: string, message: string) {
  return queryError([{ field, message }]);
}
