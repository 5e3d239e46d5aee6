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
  if (details.length) throw queryError(capDetails(details));
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw queryError(zodDetails(parsed.error));
  return parsed.data;
}

/** The most problems a 400 lists one by one; a query string can hold thousands of names. */
export const MAX_QUERY_DETAILS = 20;

/**
 * The first MAX_QUERY_DETAILS problems, then one entry saying how many more there were: the answer
 * stays small however many parameters were sent, and still says the list is incomplete.
 */
export function capDetails(details: FieldProblem[], max = MAX_QUERY_DETAILS): FieldProblem[] {
  if (details.length <= max) return details;
  const more = details.length - max;
  return [...details.slice(0, max), { field: "(more)", message: `${more} more problem${more === 1 ? "" : "s"} not listed` }];
}

/** A 400 naming the query parameters the caller must correct. */
export function queryError(details: FieldProblem[]) {
  return invalidFields(details, "Invalid query parameters");
}

/**
 * The text of a number in a query string: JSON's number syntax (an optional minus, digits, an
 * optional fraction, an optional exponent: "10", "-2.5", "1e-3", "2.5E+4"), plus leading zeros and
 * a fraction without digits on one side (".5", "5."). Hex, "Infinity", "NaN", a "+" sign, spaces
 * and the empty string are refused. (A "+" in an exponent must be sent percent-encoded, %2B: a raw
 * one in a query string means a space.)
 */
const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const NUMBER_MESSAGE = "Must be a number: digits with an optional fraction and exponent, e.g. 10, -2.5 or 1e-3";
const WHOLE_NUMBER_MESSAGE = "Must be a whole number: digits, optionally with a zero fraction or an exponent, e.g. 10, 10.0 or 1e2";

/**
 * Whether number text (NUMBER_TEXT) names a whole number, decided on its digits rather than on the
 * double it rounds to: "1e2" and "10.0" do, "1.5" and "1e-400" do not (the latter is 0 as a double).
 */
export function isWholeNumberText(text: string): boolean {
  const match = /^-?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return false;
  const [, whole = "", fraction = "", exponent = "0"] = match;
  const digits = whole + fraction;
  // The value is digits × 10^shift: whole when shift ≥ 0, or when the digits end in -shift zeros.
  const shift = Number(exponent) - fraction.length;
  if (shift >= 0) return true;
  const trailingZeros = digits.length - digits.replace(/0+$/, "").length;
  return trailingZeros === digits.length || trailingZeros >= -shift;
}

/** The double `text` names, with values beyond the doubles' range held at its ends (so bounds can be told) and -0 as 0. */
function toNumber(text: string): number {
  return Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, Number(text))) + 0;
}

/**
 * A whole number in a query string, as JSON Schema's `type: integer` (which the document states)
 * reads one: any number text whose value has no fractional part, so "100", "1e2" and "100.0" are the
 * same and "1.5" is refused. However many digits it has, an out-of-range value is told its bound
 * (not that it is no whole number).
 */
export function integerParam(min: number, max: number) {
  return z
    .string()
    .regex(NUMBER_TEXT, WHOLE_NUMBER_MESSAGE)
    .refine(isWholeNumberText, WHOLE_NUMBER_MESSAGE)
    .transform(toNumber)
    .pipe(z.number().min(min, `Must be at least ${min}`).max(max, `Must be at most ${max}`).int(WHOLE_NUMBER_MESSAGE));
}

/**
 * A number in a query string (`type: number` in the document): any number text JSON allows, and a
 * bit more (NUMBER_TEXT). One beyond the range of a double ("1e400") is refused as such.
 */
export function numberParam() {
  return z
    .string()
    .regex(NUMBER_TEXT, NUMBER_MESSAGE)
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
