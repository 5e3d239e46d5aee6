// PostgreSQL array literals (`{…}`) for statements that pass whole columns as `$n::text[]`
// parameters: a round's settlements, interval changes and venue health, backfilled and sample
// history (a round's observations go in binary: array-binary.ts). Handing the driver a JavaScript array has it escape
// and concatenate value by value (~20 MB of garbage a round); JSON.stringify writes the list in one
// native pass, and its text is an array literal's but for the brackets: numbers as the shortest
// text that reads back the same, strings double-quoted with `"` and `\` escaped by a backslash,
// null as `null` (an array literal's NULL is case-insensitive).

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
