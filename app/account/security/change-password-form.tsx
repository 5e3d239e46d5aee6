"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { postJson, problemFrom, type FormProblem } from "../../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../../components/invalid-field";
import { NewPasswordField } from "@/app/components/form-parts";

/** Current and new password; on success every other session has been signed out, and the page says how many. */
export function ChangePasswordForm({ minPasswordLength }: { minPasswordLength: number }) {
  const router = useRouter();
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setBusy(true);
    setProblem(null);
    setDone(null);
    const response = await postJson("/api/account/password", {
      current_password: String(form.get("current_password") ?? ""),
      new_password: String(form.get("new_password") ?? ""),
    });
    setBusy(false);
    if (!response.ok) return setProblem(await problemFrom(response));
    const { sessionsEnded } = ((await response.json()) as { data: { sessionsEnded: number } }).data;
    formElement.reset();
    setDone(
      sessionsEnded === 0
        ? "Password changed. No other session was signed in."
        : `Password changed. ${sessionsEnded} other session${sessionsEnded === 1 ? " was" : "s were"} signed out.`,
    );
    // The list of sessions and the audit trail below both changed.
    router.refresh();
  }

  return (
    <form onSubmit={submit} aria-labelledby="change-password-heading" noValidate className="form-narrow">
      <h2 id="change-password-heading">Change password</h2>
      <label htmlFor="current-password">Current password</label>
      <input
        id="current-password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        required
        {...invalidFieldProps(problem, "current_password")}
      />
      <FieldErrorMessage problem={problem} field="current_password" />
      <NewPasswordField
        problem={problem}
        id="new-password"
        name="new_password"
        label="New password"
        minLength={minPasswordLength}
        extraHint="Every other signed-in browser is signed out; this one stays signed in."
      />
      {problem && (
        <p role="alert" className="error">
          {problem.message}
        </p>
      )}
      {done && (
        <p role="status" className="notice">
          {done}
        </p>
      )}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? "Changing…" : "Change password"}
        </button>
      </p>
    </form>
  );
}
