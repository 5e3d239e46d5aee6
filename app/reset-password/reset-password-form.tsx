"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { postJson, problemFrom, type FormProblem } from "../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../components/invalid-field";

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
      <label htmlFor="password">New password</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={minPasswordLength}
        required
        {...invalidFieldProps(problem, "password", "password-help")}
      />
      <p id="password-help" className="muted">
        At least {minPasswordLength} characters, not a common password and not your e-mail address.
      </p>
      <FieldErrorMessage problem={problem} field="password" />
      {problem && (
        <p role="alert" className="error">
          {problem.fields.token ?? problem.message}
        </p>
      )}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Set new password"}
        </button>
      </p>
    </form>
  );
}
