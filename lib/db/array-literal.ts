// PostgreSQL array literals (`{…}`) built in one pass, for statements that pass whole columns as
// `$n::text[]` parameters (a round's 16,000 observations): handing the driver a JavaScript array
// has it escape and concatenate value by value, which made ~20 MB of garbage a round.

/**
 * Numbers or ISO times as `{1.5,NULL,2}`: values none of whose characters an array literal quotes,
 * so they are written as they are. null and undefined are NULL.
 */
export function plainArrayLiteral<T>(rows: readonly T[], pick: (row: T) => number | string | null | undefined): string {
  return `{${rows
    .map((row) => {
      const value = pick(row);
      return value === null || value === undefined ? "NULL" : String(value);
    })
    .join(",")}}`;
}

/**
 * Any texts as `{"a","b \"c\"",NULL}`: each quoted, its `"` and `\` escaped by a backslash, so
 * commas, braces, spaces and the word NULL inside a value stay text. null and undefined are NULL.
 */
export function textArrayLiteral<T>(rows: readonly T[], pick: (row: T) => string | number | null | undefined): string {
  return `{${rows
    .map((row) => {
      const value = pick(row);
      return value === null || value === undefined ? "NULL" : `"${String(value).replace(QUOTED, "\\$&")}"`;
    })
    .join(",")}}`;
}

const QUOTED = /["\\]/g;
