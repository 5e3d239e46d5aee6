/**
 * What a served set's order, its groups by asset and its splices read of an entry: a whole item,
 * or the number that says where one is in the set's columns (served-rows.ts), so the set is held
 * and spliced without building its items.
 */
export interface EntryFields<T> {
  apr(entry: T): number;
  id(entry: T): string;
  symbol(entry: T): string;
  /** The long leg's exchange. */
  long(entry: T): string;
  /** The short leg's exchange. */
  short(entry: T): string;
}

/** Whether entry `a` goes before `b` in set order (`rankedBefore`); the ids, which may be built on asking, read only for a tie. */
export function entryBefore<T>(f: EntryFields<T>, a: T, b: T): boolean {
  const x = f.apr(a);
  const y = f.apr(b);
  return x !== y ? x > y : f.id(a) < f.id(b);
}
