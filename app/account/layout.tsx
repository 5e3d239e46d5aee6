import type { ReactNode } from "react";
import { requireUser } from "@/lib/auth/session";
import { billingProvider } from "@/lib/billing/billing-provider";
import { DEMO_BILLING_LABEL } from "@/lib/billing/demo-provider";
import { AccountTabs } from "./account-tabs";
import { VerifyEmailNotice } from "./verify-email-notice";

export const dynamic = "force-dynamic";

export default async function AccountLayout({ children }: { children: ReactNode }) {
  const user = await requireUser("/account");
  return (
    <>
      <h1>Account</h1>
      <p className="muted">
        Signed in as {user.email} · {user.tier.toUpperCase()} plan
        {billingProvider().id === "demo" && <> <span className="badge">{DEMO_BILLING_LABEL}</span></>}
      </p>
      {!user.emailVerified && <VerifyEmailNotice email={user.email} />}
      <AccountTabs />
      {children}
    </>
  );
}
