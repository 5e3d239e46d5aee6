import Link from "next/link";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/credentials";
import { inspectEmailToken, TOKEN_MESSAGES } from "@/lib/accounts/email-tokens";
import { getDb } from "@/lib/db";
import { ResetPasswordForm } from "./reset-password-form";

export const dynamic = "force-dynamic";

/** Where a reset link lands. Looking does not use the link up; only setting the password does. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const found = await inspectEmailToken(await getDb(), token, "RESET_PASSWORD");
  return (
    <section className="form-narrow">
      <h1>Choose a new password</h1>
      {found.state === "valid" && typeof token === "string" ? (
        <ResetPasswordForm token={token} email={found.email} minPasswordLength={MIN_PASSWORD_LENGTH} />
      ) : (
        <>
          <p role="alert" className="error">
            {TOKEN_MESSAGES[found.state === "valid" ? "unknown" : found.state]}
          </p>
          <p>
            <Link href="/forgot-password">Ask for a new link</Link>
          </p>
        </>
      )}
    </section>
  );
}
