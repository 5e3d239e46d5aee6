import { UpgradeNotice } from "@/app/components/upgrade-notice";
import { actorFromSession } from "@/lib/actor";
import { requireUser } from "@/lib/auth/session";
import { appServices } from "@/lib/app-services";
import { listVenueFees } from "@/lib/fees/account-fees";
import { TradingFeesForm } from "./trading-fees-form";

export const dynamic = "force-dynamic";

export default async function TradingSettingsPage() {
  const user = await requireUser("/account/trading");
  const actor = actorFromSession(user);
  // Base tiers as live quotes read them: fees are the account's, whatever the key mode.
  const { items } = await listVenueFees(appServices(), actor);
  return (
    <section aria-labelledby="trading-heading">
      <h2 id="trading-heading">Trading settings</h2>
      <p>
        The taker fee you pay on each exchange, in percent (0.04 is 0.04 %, at most 1 %). Quotes, the screener&apos;s net APR at a size
        and simulations charge it instead of the venue&apos;s base tier. Leave a field empty to fall back to the venue&apos;s fee. API keys
        with the <code>write</code> permission (Desk) can set the same through <code>PATCH /v1/account/fees</code>.
      </p>
      {actor.permissions.includes("write") ? (
        <TradingFeesForm venues={items} />
      ) : (
        <UpgradeNotice>
          <p>Your own fees are charged by live quotes and simulations, which come with the Pro and Desk plans.</p>
        </UpgradeNotice>
      )}
    </section>
  );
}
