import Link from "next/link";
import { redirect } from "next/navigation";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/credentials";
import { currentUser } from "@/lib/auth/session";
import { SignUpForm } from "./sign-up-form";

export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentUser()) redirect("/account/api-keys");
  return (
    <section className="form-narrow">
      <h1>Create an account</h1>
      <p className="muted">
        Accounts start on the Free plan (screener only). Switch to Pro or Desk under Account → Plan to create API keys.
      </p>
      <SignUpForm minPasswordLength={MIN_PASSWORD_LENGTH} />
      <p>
        Already have an account? <Link href="/signin">Sign in</Link>.
      </p>
    </section>
  );
}
