import Link from "next/link";
import { redirect } from "next/navigation";
import { authPageHref } from "@/lib/auth/auth-links";
import { currentUser } from "@/lib/auth/session";
import { safeReturnPath } from "@/lib/safe-redirect";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const returnTo = safeReturnPath((await searchParams).callbackUrl);
  if (await currentUser()) redirect(returnTo);
  return (
    <section className="form-narrow">
      <h1>Sign in</h1>
      <SignInForm returnTo={returnTo} />
      <p>
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
      <p>
        No account yet? <Link href={authPageHref("/signup", returnTo)}>Create one</Link>.
      </p>
    </section>
  );
}
