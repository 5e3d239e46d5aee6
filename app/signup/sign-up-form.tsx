"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useJsonPost } from "../components/use-json-post";
import { EmailField, FormFooter, MailSentNotice, NewPasswordField } from "@/app/components/form-parts";

interface SignUpAnswer {
  message: string;
  delivery: "smtp" | "log";
}

/**
 * Sign-up does not sign in: the answer is the same whether the address was new or already had an
 * account (whose owner is e-mailed instead), and signing in would tell the two apart.
 */
export function SignUpForm({ minPasswordLength }: { minPasswordLength: number }) {
  const { busy, problem, post } = useJsonPost<SignUpAnswer>();
  const [answer, setAnswer] = useState<SignUpAnswer | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setAnswer(await post("/api/account/signup", { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") }));
  }

  if (answer) {
    return (
      <MailSentNotice delivery={answer.delivery}>
        <p>{answer.message}</p>
        <p>
          <Link href="/signin">Sign in</Link>
        </p>
      </MailSentNotice>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <EmailField problem={problem} />
      <NewPasswordField problem={problem} id="password" name="password" label="Password" minLength={minPasswordLength} extraHint="A few unrelated words work well." />
      <FormFooter problem={problem} busy={busy} label="Create account" busyLabel="Creating account…" />
    </form>
  );
}
