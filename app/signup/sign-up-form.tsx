"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { postJson, problemFrom, type FormProblem } from "../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../components/invalid-field";

interface SignUpAnswer {
  message: string;
  delivery: "smtp" | "log";
}

/**
 * Sign-up does not sign in: the answer is the same whether the address was new or already had an
 * account (whose owner is e-mailed instead), and signing in would tell the two apart.
 */
export function SignUpForm({ minPasswordLength }: { minPasswordLength: number }) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [answer, setAnswer] = useState<SignUpAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const form = new FormData(event.currentTarget);
    const response = await postJson("/api/account/signup", { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") });
    setBusy(false);
    if (!response.ok) {
      setProblem(await problemFrom(response));
      return;
    }
    setAnswer(((await response.json()) as { data: SignUpAnswer }).data);
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
      <label htmlFor="password">Password</label>
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
        At least {minPasswordLength} characters, not a common password and not your e-mail address. A few unrelated words work well.
      </p>
      <FieldErrorMessage problem={problem} field="password" />
      {problem && (
        <p role="alert" className="error">
          {problem.message}
        </p>
      )}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? "Creating account…" : "Create account"}
        </button>
      </p>
    </form>
  );
}
