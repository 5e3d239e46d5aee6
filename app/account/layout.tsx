import type { ReactNode } from "react";
import { currentUser } from "@/lib/auth/session";
import { DemoBillingBadge } from "@/app/components/demo-billing-badge";
import { AccountTabs } from "./account-tabs";
import { VerifyEmailNotice } from "./verify-email-notice";
import { planOf } from "@/lib/plans";

export const dynamic = "force-dynamic";

/**
 * The account area's frame. Signed out, it renders the page alone: every page asks for the user
 * with its own path (requireUser), so the sign-in it redirects to comes back to the page asked for.
 * A redirect from here would know only "/account", as a layout is not told the page's path.
 */
export default async function AccountLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) return children;
  return (
    <>
      <h1>Account</h1>
      <p className="muted">
        Signed in as {user.email} · {user.tier.toUpperCase()} plan
        <DemoBillingBadge />
      </p>
      {!user.emailVerified && <VerifyEmailNotice email={user.email} apiAccess={planOf(user.tier).features.api} />}
      <AccountTabs />
      {children}
    </>
  );
}
