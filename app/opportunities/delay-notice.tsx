import Link from "next/link";
import { authPageHref } from "@/lib/auth/auth-links";
import { DELAYED_PLAN, LIVE_PLAN } from "@/lib/plans";

/**
 * What a delayed view (the delayed plan's, or a signed-out visitor's) leaves out and how to get it:
 * signed out, sign-up and sign-in links that come back to `returnTo`; signed in, the upgrade.
 */
export function DelayNotice({ signedIn, returnTo, className = "notice" }: { signedIn: boolean; returnTo: string; className?: string }) {
  const minutes = DELAYED_PLAN.dataDelayMinutes;
  return (
    <p className={className} role="note" data-testid="delay-note">
      <strong>
        {signedIn ? `${DELAYED_PLAN.name} plan: data delayed by ${minutes} minutes.` : `Signed out: the ${DELAYED_PLAN.name} plan's view, data delayed by ${minutes} minutes.`}
      </strong>{" "}
      Rates, prices and history here are as they were at least {minutes} minutes ago.{" "}
      {signedIn ? (
        <>
          <Link href="/account/plan">Upgrade to {LIVE_PLAN.name}</Link> for live data and API access.
        </>
      ) : (
        <>
          <Link href={authPageHref("/signup", returnTo)}>Sign up free</Link> or <Link href={authPageHref("/signin", returnTo)}>sign in</Link>;{" "}
          {LIVE_PLAN.name} has live data, quotes, simulations and the API.
        </>
      )}
    </p>
  );
}
