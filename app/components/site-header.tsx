import Link from "next/link";
import { currentUser } from "@/lib/auth/session";
import { AccountMenu } from "./account-menu";
import { SignOutButton } from "./sign-out-button";

/** The top bar: the Account menu for signed-in users (as the /docs quick start names it), else sign-in. */
export async function SiteHeader() {
  const user = await currentUser();
  return (
    <header className="site-header">
      <Link href="/" className="brand">
        Funding Opportunity Data
      </Link>
      <nav aria-label="Main">
        <Link href="/docs">Docs</Link>
        <Link href="/status">Status</Link>
        <Link href="/opportunities">Screener</Link>
        {user && <Link href="/portfolio">Portfolio</Link>}
        {user ? (
          <AccountMenu>
            <span className="muted">{user.email}</span>
            <Link href="/account/api-keys">API Keys</Link>
            <Link href="/account/usage">Usage</Link>
            <Link href="/account/plan">Plan</Link>
            <Link href="/account/security">Security</Link>
            {user.isAdmin && <Link href="/admin">Operator console</Link>}
            <SignOutButton />
          </AccountMenu>
        ) : (
          <>
            <Link href="/signin">Sign in</Link>
            <Link href="/signup" className="button">
              Sign up
            </Link>
          </>
        )}
      </nav>
    </header>
  );
}
