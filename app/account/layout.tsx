import type { ReactNode } from "react";
import { requireUser } from "@/lib/auth/session";
import { DemoBillingBadge } from "@/app/components/demo-billing-badge";
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
        <DemoBillingBadge />
      </p>
      {!user.emailVerified && <VerifyEmailNotice email={user.email} />}
      <AccountTabs />
      {children}
    </>
  );
}
