import { z } from "zod";
import { invalidFields, type FieldProblem } from "./errors";

/** zod issues as the `details` of a VALIDATION_ERROR: one entry per field (each unknown field its own), first problem wins. */
export function zodDetails(error: z.ZodError): FieldProblem[] {
  const seen = new Set<string>();
  const details: FieldProblem[] = [];
  const add = (field: string, message: string) => {
    if (seen.has(field)) return;
    seen.add(field);
    details.push({ field, message });
  };
  // A body's shapes (a union) failing as a whole says nothing more once a field is named.
  const named = error.issues.some((issue) => issue.code !== "invalid_union");
  for (const issue of error.issues) {
    if (named && issue.code === "invalid_union") continue;
    // A field the schema does not know is named itself, as an unknown query parameter is.
    if (issue.code === "unrecognized_keys") for (const key of issue.keys) add([...issue.path, key].join("."), "Unknown field");
    else add(issue.path.join(".") || "body", issue.message);
  }
  return details;
}

/** `input` as `schema` reads it, or a 400 naming every field it refuses. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalidFields(zodDetails(parsed.error));
  return parsed.data;
}

/**
 * Text a caller sends that ends up in PostgreSQL, which cannot store U+0000 in a text column: a
 * string carrying one would fail in the database as a 500, so it is refused as input instead.
 */
export function storableText(schema: z.ZodString) {
  // A pattern rather than a refinement, so the OpenAPI document states the rule too.
  return schema.regex(/^[^\u0000]*$/, "Must not contain the NUL character (\\u0000)");
}

/**
 * At most `max` characters as JSON Schema's `maxLength` counts them, which the document states:
 * Unicode code points, so "😀" is one character although JavaScript's `length` (and zod's `.max`)
 * counts its two UTF-16 units. PostgreSQL counts characters the same way.
 */
export function maxCharacters(schema: z.ZodString, max: number, message: string) {
  return schema.refine((text) => codePointCount(text) <= max, message).meta({ maxLength: max });
}

/**
 * A list whose items must all differ, stated in the document as JSON Schema's `uniqueItems` (which
 * zod has no check for, so the refinement carries it as metadata): a generated client or a fuzzer
 * then never sends a repeat the server refuses.
 */
export function uniqueItems<S extends z.ZodArray>(schema: S, message: string) {
  return schema.refine((items) => new Set(items.map((item) => JSON.stringify(item))).size === items.length, message).meta({ uniqueItems: true });
}

function codePointCount(text: string): number {
  if (text.length <= 1) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The earliest instant a caller may name (an `opened_at`, a history range): no funding data is
 * older, and PostgreSQL refuses years before 1 that JavaScript dates accept ("0000-01-01"). The
 * rule is on the year as written (2000 to 9999: ISO 8601's four digits), so that the OpenAPI
 * document states it exactly, as a `pattern` a generated client or a fuzzer honours:
 * "2000-01-01T00:30:00+01:00" is accepted although it is still 1999 in UTC.
 */
export const EARLIEST_INSTANT_MESSAGE = "Must be in the year 2000 or later";

// ISO 8601 as zod's z.iso.date() and z.iso.datetime({ offset: true }) read it (real calendar days,
// seconds required, Z or ±hh:mm), with the year restricted to 2000–9999.
const YEAR = "[2-9]\\d{3}";
// Leap years from 2000: divisible by 4 but not by 100, or by 400.
const LEAP_YEAR = "(?:[2-9]\\d(?:0[48]|[2468][048]|[13579][26])|(?:[2468][048]|[3579][26])00)";
const MONTH_DAY =
  "(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))";
const DATE = `(?:${LEAP_YEAR}-02-29|${YEAR}-${MONTH_DAY})`;
const TIME = "(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?";
const OFFSET = "(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)";

/** A calendar date from 2000-01-01 to 9999-12-31, e.g. 2026-11-21. */
export const INSTANT_DATE_PATTERN = new RegExp(`^${DATE}$`);
/** A date-time with its UTC offset, in the years 2000 to 9999, e.g. 2026-11-21T08:00:00Z or 2026-11-21T09:00:00.5+01:00. */
export const INSTANT_DATE_TIME_PATTERN = new RegExp(`^${DATE}T${TIME}${OFFSET}$`);

/**
 * Text naming an instant (an ISO 8601 `date-time` with offset, or a `date`) in the year 2000 or
 * later. The document shows `format` and the pattern the server checks, so they agree exactly; a
 * value that would be well-formed in an earlier year is told so rather than that it is malformed.
 */
export function instantText(format: "date-time" | "date", syntaxMessage: string) {
  const pattern = format === "date" ? INSTANT_DATE_PATTERN : INSTANT_DATE_TIME_PATTERN;
  return z
    .string(syntaxMessage)
    .regex(pattern, { error: (issue) => (isEarlyInstant(String(issue.input), pattern) ? EARLIEST_INSTANT_MESSAGE : syntaxMessage) })
    .meta({ format });
}

/** `instantText` as a date-time or a date (documented as `anyOf` the two); an early year is told so either way. */
export function dateOrDateTimeText(syntaxMessage: string) {
  return z.union([instantText("date-time", syntaxMessage), instantText("date", syntaxMessage)], {
    error: (issue) =>
      issue.code === "invalid_union" && issue.errors.flat().some((problem) => problem.message === EARLIEST_INSTANT_MESSAGE)
        ? EARLIEST_INSTANT_MESSAGE
        : syntaxMessage,
  });
}

/** Whether `text` would match `pattern` but for its year before 2000 (shifted by 2000 years, which keeps leap years). */
function isEarlyInstant(text: string, pattern: RegExp): boolean {
  const year = /^[01]\d{3}(?=-)/.exec(text)?.[0];
  return year !== undefined && pattern.test(String(Number(year) + 2000) + text.slice(4));
}

// Our ids are Prisma cuids: letters and digits (the pattern leaves room for - and _).
const RESOURCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Whether a path segment could be one of our resource ids. Any other segment is answered 404
 * without asking the database, which would choke on a NUL byte.
 */
export function isPlausibleId(id: string | undefined): id is string {
  return id !== undefined && RESOURCE_ID.test(id);
}

/** A path parameter naming a stored resource; an id the pattern refuses cannot exist (404). */
export function resourceIdParam(description: string) {
  return z.string().regex(RESOURCE_ID).describe(description);
}
