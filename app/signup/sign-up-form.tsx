"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useJsonPost } from "../components/use-json-post";
import { EmailField, FormFooter, MailSentNotice, NewPasswordField } from "@/app/components/form-parts";
import { authPageHref } from "@/lib/auth/auth-links";

interface SignUpAnswer {
  message: string;
  delivery: "smtp" | "log";
}

/**
 * Creates the account, then signs in with the same e-mail and password and goes on to `returnTo`:
 * an unverified account already has its plan's screener (and test keys where the plan has the API).
 * The sign-up answer is the same whether or not the address was new; when it had an account, the
 * sign-in fails (unless the owner typed their own password) and the page shows that answer, as a
 * sign-in by hand after sign-up always could (docs/decisions/sign-up-signs-in.md).
 */
export function SignUpForm({ minPasswordLength, returnTo }: { minPasswordLength: number; returnTo: string }) {
  const router = useRouter();
  const { busy, problem, post } = useJsonPost<SignUpAnswer>();
  const [signingIn, setSigningIn] = useState(false);
  const [answer, setAnswer] = useState<SignUpAnswer | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
    const created = await post("/api/account/signup", credentials);
    if (!created) return;
    setSigningIn(true);
    const result = await signIn("credentials", { ...credentials, redirect: false }).catch(() => null);
    if (result?.ok && !result.error) {
      router.push(returnTo);
      router.refresh();
      return;
    }
    setSigningIn(false);
    setAnswer(created);
  }

  if (answer) {
    return (
      <MailSentNotice delivery={answer.delivery}>
        <p>{answer.message}</p>
        <p>
          <Link href={authPageHref("/signin", returnTo)}>Sign in</Link>
        </p>
      </MailSentNotice>
    );
  }

  const working = busy || signingIn;
  return (
    <form onSubmit={submit} noValidate>
      <EmailField problem={problem} />
      <NewPasswordField problem={problem} id="password" name="password" label="Password" minLength={minPasswordLength} extraHint="A few unrelated words work well." />
      <FormFooter problem={problem} busy={working} label="Create account" busyLabel={signingIn ? "Signing in…" : "Creating account…"} />
    </form>
  );
}
