// PostgreSQL array literals (`{…}`) for statements that pass whole columns as `$n::text[]`
// parameters (a round's 16,000 observations). Handing the driver a JavaScript array has it escape
// and concatenate value by value (~20 MB of garbage a round); JSON.stringify writes the list in one
// native pass, and its text is an array literal's but for the brackets: numbers as the shortest
// text that reads back the same, strings double-quoted with `"` and `\` escaped by a backslash,
// null as `null` (an array literal's NULL is case-insensitive).

import { float8ArrayParam } from "./array-binary";

/** Numbers (finite) or texts none of whose characters JSON escapes, as `{1.5,null,2}`; null and undefined are NULL. */
export function plainArrayLiteral<T>(rows: readonly T[], pick: (row: T) => number | string | null | undefined): string {
  return plainLiteralOf(rows.map(pick));
}

function plainLiteralOf(values: readonly (number | string | null | undefined)[]): string {
  return `{${JSON.stringify(values).slice(1, -1)}}`;
}

/**
 * Any texts as `{"a","b \"c\"",null}`: each quoted, so commas, braces, spaces and the word NULL
 * inside a value stay text. Numbers are written as their text. null and undefined are NULL.
 */
export function textArrayLiteral<T>(rows: readonly T[], pick: (row: T) => string | number | null | undefined): string {
  return textLiteralOf(rows.map(pick));
}

function textLiteralOf(values: readonly (string | number | null | undefined)[]): string {
  const texts = values.map((value) => (value === null || value === undefined ? null : String(value)));
  const json = JSON.stringify(texts);
  // JSON writes control characters as escapes (`\n`, `\u0001`) an array literal would read as
  // other text: the rare list with one is quoted value by value.
  return CONTROL_ESCAPE.test(json) ? quotedOneByOne(texts) : `{${json.slice(1, -1)}}`;
}

/** A backslash escaping anything but `"` or `\`, counting from the start of an escape. */
const CONTROL_ESCAPE = /(?<!\\)(?:\\\\)*\\[^"\\]/;

function quotedOneByOne(texts: readonly (string | null)[]): string {
  return `{${texts.map((text) => (text === null ? "NULL" : `"${text.replace(/["\\]/g, "\\$&")}"`)).join(",")}}`;
}

type Value = string | number | null | undefined;

/**
 * Each named column's last parameter, kept with the values it was written from, so a column whose
 * values are the last statement's is not written out again: of a round's 23 snapshot columns, the
 * 15 that describe its markets (names, multiplier, bounds, interval, fee) are the same from one
 * round to the next but for a listing or a change. Values are compared with ===, so the parameter is
 * always that of the values given.
 */
export class ColumnParams {
  private readonly kept = new Map<string, { values: readonly Value[]; written: string | Buffer }>();

  /** `float8ArrayParam` of `rows` (binary), written out only when its values changed. */
  float8<T>(column: string, rows: readonly T[], pick: (row: T) => number | null | undefined): Buffer {
    return this.written(`float8:${column}`, rows.map(pick), (values) => float8ArrayParam(values as readonly (number | null | undefined)[], (value) => value));
  }

  /** `textArrayLiteral` of `rows`, written out only when its values changed. */
  text<T>(column: string, rows: readonly T[], pick: (row: T) => string | number | null | undefined): string {
    return this.written(`text:${column}`, rows.map(pick), textLiteralOf);
  }

  private written<W extends string | Buffer>(key: string, values: readonly Value[], write: (values: readonly Value[]) => W): W {
    const kept = this.kept.get(key);
    if (kept && sameValues(kept.values, values)) return kept.written as W;
    const written = write(values);
    this.kept.set(key, { values, written });
    return written;
  }
}

function sameValues(a: readonly Value[], b: readonly Value[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
