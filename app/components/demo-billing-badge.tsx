import { billingProvider } from "@/lib/billing/billing-provider";
import { DEMO_BILLING_LABEL } from "@/lib/billing/demo-provider";

/** "demo billing", beside whatever shows plans, while plans cost nothing (the embedded default). */
export function DemoBillingBadge() {
  if (billingProvider().id !== "demo") return null;
  return (
    <>
      {" "}
      <span className="badge">{DEMO_BILLING_LABEL}</span>
    </>
  );
}
