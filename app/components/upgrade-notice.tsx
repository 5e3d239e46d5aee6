import Link from "next/link";
import type { ReactNode } from "react";

/** What a plan without a feature sees in its place: why (the children) and the way to the plan page. */
export function UpgradeNotice({ children }: { children: ReactNode }) {
  return (
    <div className="notice" role="note">
      {children}
      <p>
        <Link href="/account/plan">Upgrade your plan</Link>
      </p>
    </div>
  );
}
