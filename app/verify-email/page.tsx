import Link from "next/link";
import { headers } from "next/headers";
import { verifyEmail } from "@/lib/accounts/email-verification";
import { requestOrigin } from "@/lib/audit";
import { currentUser } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

/** Where a verification link lands: verifies the address once, then points on to the account. */
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  let verified: { email: string } | null = null;
  let problem: string | null = null;
  try {
    verified = await verifyEmail(await getDb(), token, requestOrigin(await headers()));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    problem = error.extra.details?.[0]?.message ?? error.message;
  }
  const signedIn = (await currentUser()) !== null;
  return (
    <section className="form-narrow">
      <h1>Verify your e-mail address</h1>
      {verified ? (
        <p role="status">Your e-mail address {verified.email} is verified. You can now create live API keys.</p>
      ) : (
        <>
          <p role="alert" className="error">
            {problem}
          </p>
          <p className="muted">Signed in, you can send a new link from the notice in your account area.</p>
        </>
      )}
      <p>{signedIn ? <Link href="/account">Go to your account</Link> : <Link href="/signin?callbackUrl=%2Faccount">Sign in</Link>}</p>
    </section>
  );
}
