"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

export function SignInForm({ returnTo }: { returnTo: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    setBusy(false);
    if (result?.ok && !result.error) {
      router.push(returnTo);
      router.refresh();
      return;
    }
    // "CredentialsSignin" covers unknown e-mail and wrong password alike, on purpose.
    setError(result?.error && result.error !== "CredentialsSignin" ? result.error : "Wrong e-mail or password.");
  }

  // The message cannot say which field is wrong (that would reveal whether the e-mail exists), so both are marked.
  const invalid = error ? ({ "aria-invalid": "true", "aria-describedby": "signin-error" } as const) : {};
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="email">E-mail</label>
      <input id="email" name="email" type="email" autoComplete="email" required {...invalid} />
      <label htmlFor="password">Password</label>
      <input id="password" name="password" type="password" autoComplete="current-password" required {...invalid} />
      {error && (
        <p id="signin-error" role="alert" className="error">
          {error}
        </p>
      )}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </p>
    </form>
  );
}
