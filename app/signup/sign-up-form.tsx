"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { postJson, problemFrom, type FormProblem } from "../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../components/invalid-field";

export function SignUpForm({ minPasswordLength }: { minPasswordLength: number }) {
  const router = useRouter();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    const response = await postJson("/api/account/signup", { email, password });
    if (!response.ok) {
      setProblem(await problemFrom(response));
      setBusy(false);
      return;
    }
    const result = await signIn("credentials", { email, password, redirect: false });
    setBusy(false);
    if (result?.error) {
      setProblem({ message: "Your account was created, but signing in failed. Sign in to continue.", fields: {} });
      return;
    }
    router.push("/account/api-keys");
    router.refresh();
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
        At least {minPasswordLength} characters.
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
