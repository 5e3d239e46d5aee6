import { z } from "zod";
import { invalidFields, type FieldProblem } from "./errors";

/** zod issues as the `details` of a VALIDATION_ERROR: one entry per field, first problem wins. */
export function zodDetails(error: z.ZodError): FieldProblem[] {
  const seen = new Set<string>();
  const details: FieldProblem[] = [];
  for (const issue of error.issues) {
    const field = issue.path.join(".") || "body";
    if (seen.has(field)) continue;
    seen.add(field);
    details.push({ field, message: issue.message });
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
  return schema.refine((text) => !text.includes("\u0000"), "Must not contain the NUL character (\\u0000)");
}

/**
 * The earliest instant a caller may name (an `opened_at`, a history range): no funding data is
 * older, and PostgreSQL refuses years before 1 that JavaScript dates accept ("0000-01-01").
 */
export const EARLIEST_INSTANT_MS = Date.UTC(2000, 0, 1);
export const EARLIEST_INSTANT_MESSAGE = "Must be in the year 2000 or later";

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
