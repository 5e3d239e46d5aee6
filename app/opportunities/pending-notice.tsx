import { formatUtc } from "@/lib/format-time";
import { DELAYED_PLAN } from "@/lib/plans";

/** A delayed view asked for before live data is old enough to show: when its first set appears. */
export function PendingNotice({ availableAt }: { availableAt: string | null }) {
  return (
    <p className="panel" role="status">
      Live data started less than {DELAYED_PLAN.dataDelayMinutes} minutes ago, so there is nothing old enough to show on the {DELAYED_PLAN.name} plan
      yet{availableAt ? `: the first delayed set appears at ${formatUtc(availableAt)}` : ""}.
    </p>
  );
}
