import Link from "next/link";
import type { ReactNode } from "react";
import { formatUtc } from "@/lib/format-time";
import { DELAYED_PLAN } from "@/lib/plans";
import { formatAge } from "@/lib/screener/format";
import { DataBadge } from "./data-badge";
import styles from "./screener.module.css";

/**
 * A list's one line under its heading: live, delayed or sample, as of when (or `never` before any
 * data), the feed status, and `children` (what the sample is).
 */
export function FreshnessLine({ asOf, sample, delayed, now, never, children }: { asOf: string | null; sample: boolean; delayed: boolean; now: number; never: string; children?: ReactNode }) {
  return (
    <div className={`freshness ${styles.freshness}`} data-testid="freshness">
      <DataBadge sample={sample} delayed={delayed} delayMinutes={DELAYED_PLAN.dataDelayMinutes} />{" "}
      <span>
        {asOf ? (
          <>
            Data as of <time dateTime={asOf}>{formatUtc(asOf)}</time> ({formatAge(asOf, now)})
          </>
        ) : (
          never
        )}
      </span>{" "}
      <Link href="/status">Feed status</Link>
      {children}
    </div>
  );
}
