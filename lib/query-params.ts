import { z } from "zod";
import { invalidFields, type FieldProblem } from "@/lib/errors";
import { zodDetails } from "@/lib/validation";

/**
 * Validates a query string against a schema of single-valued parameters: unknown and repeated
 * parameters are refused (a typo in a filter name must not silently widen the result).
 */
export function parseQuery<S extends z.ZodObject>(url: URL, schema: S): z.infer<S> {
  const known = new Set(Object.keys(schema.shape));
  const values: Record<string, string> = {};
  const details: FieldProblem[] = [];
  for (const [name, value] of url.searchParams) {
    if (!known.has(name)) details.push({ field: name, message: "Unknown query parameter" });
    else if (name in values) details.push({ field: name, message: "Parameter given more than once" });
    else values[name] = value;
  }
  if (details.length) throw queryError(details);
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw queryError(zodDetails(parsed.error));
  return parsed.data;
}

/** A 400 naming the query parameters the caller must correct. */
export function queryError(details: FieldProblem[]) {
  return invalidFields(details, "Invalid query parameters");
}

/**
 * A whole number in a query string: digits only, so "1.5", "1e2" and " 5" are refused. However many
 * digits it has, an out-of-range value is told its bound (not that it is no whole number).
 */
export function integerParam(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d+$/, "Must be a whole number")
    .transform(Number)
    .pipe(z.number().min(min, `Must be at least ${min}`).max(max, `Must be at most ${max}`).int());
}

/** A decimal number in a query string ("10", "-2.5", ".5"); one too large for a double is refused as such. */
export function numberParam() {
  return z
    .string()
    .regex(/^-?(\d+(\.\d*)?|\.\d+)$/, "Must be a number")
    .transform(Number)
    .pipe(z.number({ error: "Must be a number of reasonable size" }));
}

/** The largest `offset` any list accepts. */
export const MAX_OFFSET = 1_000_000;

/**
 * `limit` and `offset` of a paged list. Their bounds are in their descriptions too: the reference
 * on /docs shows a parameter's description and default, not its schema's minimum and maximum.
 */
export function pageParams(maxLimit: number, defaultLimit: number) {
  return {
    limit: integerParam(1, maxLimit).default(defaultLimit).describe(`Page size, 1 to ${maxLimit}.`),
    offset: integerParam(0, MAX_OFFSET).default(0).describe(`Number of items to skip, 0 to ${MAX_OFFSET.toLocaleString("en-US")}.`),
  };
}
