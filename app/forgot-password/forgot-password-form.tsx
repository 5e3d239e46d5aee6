"use client";

import { useState, type FormEvent } from "react";
import { useJsonPost } from "../components/use-json-post";
import { FieldErrorMessage, invalidFieldProps } from "../components/invalid-field";
import { FormFooter } from "@/app/components/form-parts";

export function ForgotPasswordForm() {
  const { busy, problem, post } = useJsonPost<{ delivery: "smtp" | "log" }>();
  const [delivery, setDelivery] = useState<"smtp" | "log" | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const answer = await post("/api/account/password-reset", { email: String(new FormData(event.currentTarget).get("email") ?? "") });
    setDelivery(answer?.delivery ?? null);
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
      <FormFooter problem={problem} busy={busy} label="Send reset link" busyLabel="Sending…" />
    </form>
  );
}
