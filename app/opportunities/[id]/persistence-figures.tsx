import type { Persistence } from "@/lib/market/model/types";
import { formatUtc } from "@/lib/format-time";
import { formatApr, formatSeconds } from "@/lib/screener/format";
import { hasPersistenceFigures } from "@/lib/screener/persistence-cell";
import styles from "./opportunity.module.css";

/** How steadily the pair has paid, every figure the opportunity carries, each with what it means. */
export function PersistenceFigures({ persistence: p }: { persistence: Persistence }) {
  if (!hasPersistenceFigures(p)) {
    return <p className="muted">Not computed for this pair yet: the figures need stored hourly history of both markets.</p>;
  }
  const run = p.positive_since === null || p.as_of === null ? null : (Date.parse(p.as_of) - Date.parse(p.positive_since)) / 1000;
  return (
    <dl className={styles.figures} data-testid="persistence">
      <div>
        <dt>Positive since</dt>
        <dd>
          {p.positive_since === null ? (
            "not positive in the last whole hour"
          ) : (
            <>
              <time dateTime={p.positive_since}>{formatUtc(p.positive_since)}</time> ({formatSeconds(run)})
            </>
          )}
        </dd>
      </div>
      <div>
        <dt>Median APR, 7 days</dt>
        <dd>{formatApr(p.apr_median_7d)}</dd>
      </div>
      <div>
        <dt>Median APR, 30 days</dt>
        <dd>{formatApr(p.apr_median_30d)}</dd>
      </div>
      <div>
        <dt>Settled hours that paid, 7 days</dt>
        <dd>{p.paid_share_7d === null ? "—" : `${(p.paid_share_7d * 100).toFixed(1)}%`}</dd>
      </div>
      <div>
        <dt>Deviation of the hourly APR, 7 days</dt>
        <dd>{formatApr(p.apr_stddev_7d)}</dd>
      </div>
      <div>
        <dt>Computed to</dt>
        <dd>{p.as_of === null ? "—" : <time dateTime={p.as_of}>{formatUtc(p.as_of)}</time>}</dd>
      </div>
    </dl>
  );
}
