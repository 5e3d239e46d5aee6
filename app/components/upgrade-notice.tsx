import Link from "next/link";
import type { ReactNode } from "react";
import { planNames, plansWith, type Plan, type PlanFeature } from "@/lib/plans";

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

/** The notice for a counted feature (webhook endpoints, alert rules): the plans that include it, and how many each allows. */
export function FeatureUpgradeNotice(props: { title: string; feature: PlanFeature; count: (plan: Plan) => number; unit: string }) {
  const plans = plansWith(props.feature);
  return (
    <UpgradeNotice>
      <p>
        <strong>
          {props.title} come with the {planNames(plans)} plans
        </strong>{" "}
        ({plans.map(props.count).join(" and ")} {props.unit}).
      </p>
    </UpgradeNotice>
  );
}
