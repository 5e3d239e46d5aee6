"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useJsonPost } from "../components/use-json-post";
import { FieldErrorMessage, invalidFieldProps } from "../components/invalid-field";
import { FormFooter, NewPasswordField } from "@/app/components/form-parts";

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
      <div role="status" className="notice">
        <p>{answer.message}</p>
        {answer.delivery === "log" && (
          <p>No mail server is configured on this server, so the message was written to the server log instead: check the server log for the link.</p>
        )}
        <p>
          <Link href="/signin">Sign in</Link>
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="email">E-mail</label>
      <input id="email" name="email" type="email" autoComplete="email" required {...invalidFieldProps(problem, "email")} />
      <FieldErrorMessage problem={problem} field="email" />
      <NewPasswordField problem={problem} id="password" name="password" label="Password" minLength={minPasswordLength} extraHint="A few unrelated words work well." />
      <FormFooter problem={problem} busy={busy} label="Create account" busyLabel="Creating account…" />
    </form>
  );
}
