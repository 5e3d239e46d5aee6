"use client";

import { useState, type FormEvent } from "react";
import { useJsonPost } from "../components/use-json-post";
import { EmailField, FormFooter, MailSentNotice } from "@/app/components/form-parts";

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
      <MailSentNotice delivery={delivery}>
        <p>If an account has that address, we sent it a link to reset the password. The link works once, for 30 minutes.</p>
      </MailSentNotice>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <EmailField problem={problem} />
      <FormFooter problem={problem} busy={busy} label="Send reset link" busyLabel="Sending…" />
    </form>
  );
}
