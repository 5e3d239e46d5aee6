/** What kind of data a screener or opportunity page shows: the bundled sample, the delayed set, or live. */
export function DataBadge({ sample, delayed, delayMinutes }: { sample: boolean; delayed: boolean; delayMinutes: number }) {
  if (sample) return <span className="badge badge-sample">Sample data (bundled snapshot, not live)</span>;
  if (delayed) return <span className="badge badge-delayed">Delayed {delayMinutes} min</span>;
  return <span className="badge badge-live">Live</span>;
}
