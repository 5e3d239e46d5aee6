"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { postJson, problemFrom, type FormProblem } from "../components/field-errors";
import { FormFooter, NewPasswordField } from "@/app/components/form-parts";

export function ResetPasswordForm({ token, email, minPasswordLength }: { token: string; email: string; minPasswordLength: number }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    const response = await postJson("/api/account/password-reset/complete", { token, password });
    setBusy(false);
    if (!response.ok) {
      setProblem(await problemFrom(response));
      return;
    }
    setDone(true);
  }

  if (done) {
    return (
      <div role="status" className="notice">
        <p>Your password is changed, and every browser that was signed in to {email} is signed out.</p>
        <p>
          <Link href="/signin">Sign in</Link> with the new password.
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <p className="muted">For {email}.</p>
      <NewPasswordField problem={problem} id="password" name="password" label="New password" minLength={minPasswordLength} />
      <FormFooter problem={problem} alert={problem?.fields.token} busy={busy} label="Set new password" busyLabel="Saving…" />
    </form>
  );
}
