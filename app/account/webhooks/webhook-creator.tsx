"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { CheckboxOptions, FieldAlert, FormAlert, LabelledField, SubmitRow } from "@/app/components/form-alerts";
import { useJsonPost } from "@/app/components/use-json-post";
import { NewSecretPanel } from "./new-secret-panel";

interface Created {
  url: string;
  secret: string;
}

/** The form adding an endpoint, and the panel showing its secret once. */
export function WebhookCreator({ eventTypes, full, cap }: { eventTypes: string[]; full: boolean; cap: number }) {
  const router = useRouter();
  const { busy, problem, post } = useJsonPost<Created>();
  const [created, setCreated] = useState<Created | null>(null);

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const description = String(form.get("description") ?? "").trim();
    const body = { url: String(form.get("url") ?? "").trim(), event_types: form.getAll("event_types").map(String), description: description || null };
    const answer = await post("/api/account/webhooks", body);
    if (!answer) return;
    setCreated(answer);
    (event.target as HTMLFormElement).reset();
    router.refresh();
  }

  if (created) return <NewSecretPanel heading={`Endpoint added: ${created.url}`} secret={created.secret} onDone={() => setCreated(null)} />;
  if (full) return <p className="muted">Your plan allows {cap} endpoints: delete one to add another.</p>;
  return (
    <form onSubmit={submit} noValidate aria-label="Add a webhook endpoint">
      <h3>Add an endpoint</h3>
      <LabelledField label="Endpoint URL" problem={problem} name="url" type="url" required placeholder="https://example.com/hooks/funding" />
      <LabelledField label="Description (optional)" problem={problem} name="description" type="text" maxLength={200} />
      <fieldset>
        <legend>Events</legend>
        <CheckboxOptions name="event_types" options={eventTypes.map((type) => [type, type] as const)} />
      </fieldset>
      <FieldAlert problem={problem} field="event_types" />
      <FormAlert problem={problem} />
      <SubmitRow busy={busy}>Add endpoint</SubmitRow>
    </form>
  );
}
