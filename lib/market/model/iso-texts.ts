/**
 * ISO texts of epoch times, each made once: a venue's markets share their funding and observation
 * times, so a round's 16,000 markets have a few hundred distinct ones.
 */
export function isoTexts(): (epochMs: number) => string {
  const made = new Map<number, string>();
  return (epochMs) => {
    let iso = made.get(epochMs);
    if (iso === undefined) made.set(epochMs, (iso = new Date(epochMs).toISOString()));
    return iso;
  };
}
