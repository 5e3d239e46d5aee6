import Link from "next/link";
import { redirect } from "next/navigation";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/credentials";
import { authPageHref } from "@/lib/auth/auth-links";
import { currentUser } from "@/lib/auth/session";
import { planNames, planOf, plansWith } from "@/lib/plans";
import { safeReturnPath } from "@/lib/safe-redirect";
import { SignUpForm } from "./sign-up-form";

export const dynamic = "force-dynamic";

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const returnTo = safeReturnPath((await searchParams).callbackUrl);
  if (await currentUser()) redirect(returnTo);
  const free = planOf("free");
  return (
    <section className="form-narrow">
      <h1>Create an account</h1>
      <p className="muted">
        Accounts start on the {free.name} plan: the screener with data delayed {free.dataDelayMinutes} minutes, signed in at once.
        API keys come with {planNames(plansWith("api"), "or")}, under Account → Plan.
      </p>
      <SignUpForm minPasswordLength={MIN_PASSWORD_LENGTH} returnTo={returnTo} />
      <p>
        Already have an account? <Link href={authPageHref("/signin", returnTo)}>Sign in</Link>.
      </p>
    </section>
  );
}
