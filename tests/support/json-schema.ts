import fc from "fast-check";

// The part of JSON Schema (draft 2020-12, as OpenAPI 3.1 embeds it) that the /v1 OpenAPI document
// uses: a validator, and a fast-check arbitrary of the values a schema allows, as a third-party
// fuzzer driven only by the document would generate them. A keyword outside this subset throws, so
// the document cannot start saying something these tests silently ignore.

export type JsonSchema = { [keyword: string]: unknown } | boolean;
type SchemaObject = { [keyword: string]: unknown };

/** Keywords that only annotate: they constrain nothing. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "$comment", "discriminator"]);
const ASSERTIONS = new Set([
  "$ref",
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "if",
  "then",
  "else",
  "not",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
]);
const FORMATS = new Set(["date-time", "date"]);

/** Resolves `#/…` references against the document the schemas sit in. */
export class SchemaContext {
  private readonly patterns = new Map<string, RegExp>();

  constructor(private readonly root: SchemaObject) {}

  resolve(schema: JsonSchema): JsonSchema {
    let current = schema;
    for (let depth = 0; typeof current === "object" && typeof current.$ref === "string"; depth++) {
      if (depth > 20) throw new Error(`$ref loop at ${String(current.$ref)}`);
      const ref = current.$ref as string;
      if (!ref.startsWith("#/")) throw new Error(`only local references are supported: ${ref}`);
      let target: unknown = this.root;
      for (const segment of ref.slice(2).split("/")) {
        target = (target as SchemaObject | undefined)?.[segment.replace(/~1/g, "/").replace(/~0/g, "~")];
      }
      if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
      const { $ref: _ref, ...siblings } = current;
      current = Object.keys(siblings).length ? { allOf: [target as JsonSchema, siblings] } : (target as JsonSchema);
    }
    return current;
  }

  /** ECMA-262 with Unicode semantics, as JSON Schema reads a `pattern` (unanchored: it matches anywhere). */
  regex(pattern: string): RegExp {
    let regex = this.patterns.get(pattern);
    if (!regex) {
      regex = new RegExp(pattern, "u");
      this.patterns.set(pattern, regex);
    }
    return regex;
  }
}

function checkKeywords(schema: SchemaObject, where: string) {
  for (const keyword of Object.keys(schema)) {
    if (!ASSERTIONS.has(keyword) && !ANNOTATIONS.has(keyword)) throw new Error(`${where}: JSON Schema keyword "${keyword}" is not supported here`);
  }
  if (typeof schema.format === "string" && !FORMATS.has(schema.format)) throw new Error(`${where}: format "${schema.format}" is not supported here`);
}

const typeOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value;

const characters = (text: string) => [...text].length;

// RFC 3339 (what `format` names), checked loosely on the calendar: the documented patterns are stricter.
const RFC3339_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const RFC3339_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What is wrong with `value` under `schema` ([] when it is valid), each problem with its JSON path. */
export function validationErrors(context: SchemaContext, schema: JsonSchema, value: unknown, path = "$"): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed here`];
  schema = context.resolve(schema);
  if (typeof schema === "boolean") return validationErrors(context, schema, value, path);
  checkKeywords(schema, path);
  const errors: string[] = [];
  const fail = (message: string) => errors.push(`${path}: ${message}`);

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    const actual = typeOf(value);
    const ok = types.some((t) => t === actual || (t === "number" && actual === "integer"));
    if (!ok) return [`${path}: expected ${types.join(" or ")}, got ${actual} ${JSON.stringify(value)?.slice(0, 80)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((v) => deepEqual(v, value))) fail(`not one of ${JSON.stringify(schema.enum)}`);
  if ("const" in schema && !deepEqual(schema.const, value)) fail(`not ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.allOf)) for (const sub of schema.allOf as JsonSchema[]) errors.push(...validationErrors(context, sub, value, path));
  if (Array.isArray(schema.anyOf)) {
    const results = (schema.anyOf as JsonSchema[]).map((sub) => validationErrors(context, sub, value, path));
    if (!results.some((r) => r.length === 0)) fail(`matches none of anyOf: ${results.map((r) => r.join("; ")).join(" | ")}`);
  }
  if (schema.not !== undefined && isValid(context, schema.not as JsonSchema, value)) fail(`matches what "not" excludes: ${JSON.stringify(schema.not)}`);
  if (schema.if !== undefined) {
    const branch = isValid(context, schema.if as JsonSchema, value) ? schema.then : schema.else;
    if (branch !== undefined) errors.push(...validationErrors(context, branch as JsonSchema, value, path));
  }
  if (Array.isArray(schema.oneOf)) {
    const results = (schema.oneOf as JsonSchema[]).map((sub) => validationErrors(context, sub, value, path));
    const matching = results.filter((r) => r.length === 0).length;
    if (matching !== 1) fail(`matches ${matching} of oneOf, not exactly one: ${results.map((r) => r.join("; ") || "ok").join(" | ")}`);
  }

  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail("not a finite number");
    if (typeof schema.minimum === "number" && value < schema.minimum) fail(`below minimum ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) fail(`above maximum ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) fail(`not above ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) fail(`not below ${schema.exclusiveMaximum}`);
  }
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && characters(value) < schema.minLength) fail(`shorter than ${schema.minLength} characters`);
    if (typeof schema.maxLength === "number" && characters(value) > schema.maxLength) fail(`longer than ${schema.maxLength} characters`);
    if (typeof schema.pattern === "string" && !context.regex(schema.pattern).test(value)) fail(`does not match ${schema.pattern}`);
    if (schema.format === "date-time" && !RFC3339_DATE_TIME.test(value)) fail("not an RFC 3339 date-time");
    if (schema.format === "date" && !RFC3339_DATE.test(value)) fail("not an RFC 3339 date");
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === "number" && value.length < schema.minItems) fail(`fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === "number" && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    if (schema.uniqueItems === true && new Set(value.map((item) => JSON.stringify(item))).size !== value.length) fail("items repeat");
    if (schema.items !== undefined) value.forEach((item, i) => errors.push(...validationErrors(context, schema.items as JsonSchema, item, `${path}[${i}]`)));
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of (schema.required ?? []) as string[]) if (!(name in object)) fail(`lacks required property ${name}`);
    if (typeof schema.minProperties === "number" && keys.length < schema.minProperties) fail(`fewer than ${schema.minProperties} properties`);
    if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties) fail(`more than ${schema.maxProperties} properties`);
    for (const key of keys) {
      if (schema.propertyNames !== undefined) errors.push(...validationErrors(context, schema.propertyNames as JsonSchema, key, `${path}.${key} (name)`));
      if (key in properties) errors.push(...validationErrors(context, properties[key]!, object[key], `${path}.${key}`));
      else if (schema.additionalProperties !== undefined) {
        errors.push(...validationErrors(context, schema.additionalProperties as JsonSchema, object[key], `${path}.${key}`));
      }
    }
  }
  return errors;
}

export const isValid = (context: SchemaContext, schema: JsonSchema, value: unknown) => validationErrors(context, schema, value).length === 0;

export interface ArbitraryOptions {
  /**
   * Values worth trying for a property of this name besides random ones (ids that exist, symbols
   * with markets): used only where the schema allows them, so they never make a value invalid.
   */
  hints?: (name: string) => readonly unknown[];
  /** How numbers and booleans will be written (query parameters are text): the arbitrary then yields text. */
  asText?: boolean;
}

/** Any Unicode scalar value (no lone surrogates, which JSON text cannot carry as characters). */
const scalar = fc.integer({ min: 0, max: 0x10ffff - 0x800 }).map((n) => String.fromCodePoint(n >= 0xd800 ? n + 0x800 : n));
const anyUnicode = (minLength: number, maxLength: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", minLength, maxLength: Math.min(maxLength, 40) }) },
    { weight: 2, arbitrary: fc.string({ unit: scalar, minLength, maxLength: Math.min(maxLength, 40) }) },
    // At the bound, in the widest characters: where counting code points and UTF-16 units part.
    { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom("😀", "𝔸", "é", "x"), minLength: maxLength === Infinity ? minLength : maxLength, maxLength: maxLength === Infinity ? minLength + 3 : maxLength }) },
  );

/** Every way JSON (and so a generated client) may write the number `n`: plain, with a zero fraction, with an exponent. */
function numberText(n: number): fc.Arbitrary<string> {
  const variants = [String(n), JSON.stringify(n), n.toExponential(), n.toExponential().toUpperCase()];
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    // Exactly, on the digits: 1230 → 1230.0, 1.23e3, 123e1.
    const sign = n < 0 ? "-" : "";
    const digits = String(Math.abs(n));
    const rest = digits.slice(1).replace(/0+$/, "");
    variants.push(`${n}.0`, `${sign}${digits[0]}${rest ? `.${rest}` : ""}e${digits.length - 1}`);
    const zeros = digits.length - digits.replace(/0+$/, "").length;
    if (zeros > 0 && zeros < digits.length) variants.push(`${sign}${digits.slice(0, digits.length - zeros)}e${zeros}`);
  }
  return fc.constantFrom(...new Set(variants));
}

/** A fast-check arbitrary of the values `schema` allows. */
export function arbitraryFor(context: SchemaContext, schema: JsonSchema, options: ArbitraryOptions = {}, name = "", path = "$"): fc.Arbitrary<unknown> {
  if (schema === false) throw new Error(`${path}: no value is allowed`);
  if (schema === true) return fc.jsonValue();
  const resolved = context.resolve(schema);
  if (typeof resolved === "boolean") return arbitraryFor(context, resolved, options, name, path);
  checkKeywords(resolved, path);
  // Numbers and booleans written as text are valid by construction; every other value is checked as generated.
  const textual = options.asText === true && ["integer", "number", "boolean"].includes(resolved.type as string);
  const arbitrary = rawArbitrary(context, resolved, options, name, path);
  const hinted = textual ? [] : (options.hints?.(name) ?? []).filter((hint) => isValid(context, resolved, hint));
  const withHints = hinted.length ? fc.oneof(arbitrary, fc.constantFrom(...hinted)) : arbitrary;
  return textual ? withHints : withHints.filter((value) => isValid(context, resolved, value));
}

function rawArbitrary(context: SchemaContext, schema: SchemaObject, options: ArbitraryOptions, name: string, path: string): fc.Arbitrary<unknown> {
  const text = (arbitrary: fc.Arbitrary<number>) => (options.asText ? arbitrary.chain(numberText) : arbitrary);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const branches = ((schema.oneOf ?? schema.anyOf) as JsonSchema[]).map((sub, i) =>
      arbitraryFor(context, mergeSiblings(schema, sub), options, name, `${path}/${schema.oneOf ? "oneOf" : "anyOf"}/${i}`),
    );
    return fc.oneof(...branches);
  }
  if (Array.isArray(schema.allOf)) {
    // Generated from the first branch with the keywords beside allOf (a string's type and length
    // beside its patterns), then kept when it meets the other branches too.
    const { allOf, ...siblings } = schema;
    const [first, ...rest] = allOf as JsonSchema[];
    const resolved = context.resolve(first!);
    const base = typeof resolved === "object" && Object.keys(siblings).length ? { ...siblings, ...resolved } : resolved;
    return arbitraryFor(context, base, options, name, path).filter((v) => rest.every((sub) => isValid(context, sub, v)));
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type === undefined ? [] : [schema.type as string];
  if (types.length > 1) return fc.oneof(...types.map((type) => rawArbitrary(context, { ...schema, type }, options, name, path)));
  switch (types[0]) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return options.asText ? fc.constantFrom("true", "false") : fc.boolean();
    case "integer": {
      const min = Math.max(Number.MIN_SAFE_INTEGER, bound(schema.minimum, schema.exclusiveMinimum, 1) ?? Number.MIN_SAFE_INTEGER);
      const max = Math.min(Number.MAX_SAFE_INTEGER, bound(schema.maximum, schema.exclusiveMaximum, -1) ?? Number.MAX_SAFE_INTEGER);
      return text(fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max)));
    }
    case "number": {
      const min = bound(schema.minimum, schema.exclusiveMinimum, 1);
      const max = bound(schema.maximum, schema.exclusiveMaximum, -1);
      const double = fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: schema.exclusiveMinimum !== undefined, maxExcluded: schema.exclusiveMaximum !== undefined });
      const edges = [min, max].filter((v): v is number => v !== undefined && Number.isFinite(v));
      return text(edges.length ? fc.oneof({ weight: 4, arbitrary: double }, { weight: 1, arbitrary: fc.constantFrom(...edges) }) : double);
    }
    case "string": {
      const minLength = (schema.minLength as number | undefined) ?? 0;
      const maxLength = (schema.maxLength as number | undefined) ?? Infinity;
      const fits = (s: string) => characters(s) >= minLength && characters(s) <= maxLength;
      if (typeof schema.pattern === "string") return fc.stringMatching(context.regex(schema.pattern)).filter(fits);
      // RFC 3339 knows years 0000 to 9999, and so does a fuzzer that reads only `format`.
      const instant = fc.date({ min: new Date("0000-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true });
      if (schema.format === "date-time") return instant.map((d) => d.toISOString());
      if (schema.format === "date") return instant.map((d) => d.toISOString().slice(0, 10));
      return anyUnicode(minLength, maxLength).filter(fits);
    }
    case "array": {
      const item = schema.items === undefined ? fc.jsonValue() : arbitraryFor(context, schema.items as JsonSchema, options, name, `${path}[]`);
      const lengths = { minLength: (schema.minItems as number | undefined) ?? 0, maxLength: Math.min((schema.maxItems as number | undefined) ?? 5, 5) };
      return schema.uniqueItems === true ? fc.uniqueArray(item, { ...lengths, selector: (v) => JSON.stringify(v) }) : fc.array(item, lengths);
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((schema.required ?? []) as string[]);
      if (schema.additionalProperties !== false) throw new Error(`${path}: generating objects with additional properties is not supported`);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties)) record[key] = arbitraryFor(context, sub, options, key, `${path}.${key}`);
      const minProperties = (schema.minProperties as number | undefined) ?? 0;
      return fc
        .record(record, { requiredKeys: [...required].filter((key) => key in properties) })
        .filter((object) => Object.keys(object).length >= minProperties);
    }
    default:
      throw new Error(`${path}: cannot generate values of ${JSON.stringify(schema).slice(0, 200)}`);
  }
}

/** The bound a (possibly exclusive) minimum or maximum sets, for generators that only take inclusive ones. */
function bound(inclusive: unknown, exclusive: unknown, step: 1 | -1): number | undefined {
  if (typeof inclusive === "number") return inclusive;
  if (typeof exclusive === "number") return Number.isInteger(exclusive) ? exclusive + step : exclusive;
  return undefined;
}

/** A branch of `oneOf`/`anyOf`/`allOf` with the keywords beside it (a shared `type`, say). */
function mergeSiblings(parent: SchemaObject, branch: JsonSchema): JsonSchema {
  const { oneOf: _one, anyOf: _any, allOf: _all, description: _d, default: _default, ...siblings } = parent;
  if (typeof branch === "boolean" || Object.keys(siblings).length === 0) return branch;
  return { allOf: [branch, siblings] };
}
