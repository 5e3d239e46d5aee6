/**
 * Where history shown beside a published set ends, for a view that would end at `at` (now, or a
 * delayed view's moment): there, except while the set is the offline sample, whose recorded
 * history ends at its as-of, long before now; a chart, a default range or a historical simulation
 * of the sample ends at its as-of instead of showing the empty days after it. Pure.
 */
export function historyEnd(set: { sample: boolean; asOf: string | null }, at: Date): Date {
  if (!set.sample || set.asOf === null) return at;
  const asOf = Date.parse(set.asOf);
  return asOf < at.getTime() ? new Date(asOf) : at;
}
