"use client";

import { useState, type FormEvent } from "react";
import { postJson, problemFrom, type FormProblem } from "../components/field-errors";
import { FieldErrorMessage, invalidFieldProps } from "../components/invalid-field";

export function ForgotPasswordForm() {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [delivery, setDelivery] = useState<"smtp" | "log" | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    const response = await postJson("/api/account/password-reset", { email: String(new FormData(event.currentTarget).get("email") ?? "") });
    setBusy(false);
    if (!response.ok) {
      setProblem(await problemFrom(response));
      return;
    }
    setDelivery(((await response.json()) as { data: { delivery: "smtp" | "log" } }).data.delivery);
  }

  if (delivery) {
    // The same words whether or not the address has an account: the form must not tell.
    return (
      <div role="status" className="notice">
        <p>If an account has that address, we sent it a link to reset the password. The link works once, for 30 minutes.</p>
        {delivery === "log" && (
          <p>No mail server is configured on this server, so the message was written to the server log instead: check the server log for the link.</p>
        )}
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <label htmlFor="email">E-mail</label>
      <input id="email" name="email" type="email" autoComplete="email" required {...invalidFieldProps(problem, "email")} />
      <FieldErrorMessage problem={problem} field="email" />
      {problem && (
        <p role="alert" className="error">
          {problem.message}
        </p>
      )}
      <p>
        <button type="submit" disabled={busy}>
          {busy ? "Sending…" : "Send reset link"}
        </button>
      </p>
    </form>
  );
}
