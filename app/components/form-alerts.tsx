import type { InputHTMLAttributes, ReactNode } from "react";
import type { FormProblem } from "./field-errors";

/** The server's message for one field of a form, announced as it appears. */
export function FieldAlert({ problem, field }: { problem: FormProblem | null; field: string }) {
  const message = problem?.fields[field];
  if (!message) return null;
  return (
    <p className="error" role="alert">
      {message}
    </p>
  );
}

/** The server's refusal of a whole form, when it names no field. */
export function FormAlert({ problem }: { problem: FormProblem | null }) {
  if (!problem || Object.keys(problem.fields).length > 0) return null;
  return (
    <p className="error" role="alert">
      {problem.message}
    </p>
  );
}

/** What an action answered: an error is announced at once (alert), anything else politely (status). */
export function OutcomeMessage({ message, className }: { message: { error: boolean; text: string } | null; className?: string }) {
  if (!message) return null;
  return (
    <p role={message.error ? "alert" : "status"} className={message.error ? "error" : className}>
      {message.text}
    </p>
  );
}

/** A form's submit button on a line of its own, disabled while the form is being sent. */
export function SubmitRow({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <p>
      <button type="submit" disabled={busy}>
        {children}
      </button>
    </p>
  );
}

/**
 * An input on a line of its own inside its label, marked invalid when the server refused its field,
 * followed by the server's message for it. The field is the input's `name`.
 */
export function LabelledField({ label, problem, ...input }: InputHTMLAttributes<HTMLInputElement> & { name: string; label: ReactNode; problem: FormProblem | null }) {
  return (
    <>
      <p>
        <label>
          {label}
          <input {...input} aria-invalid={Boolean(problem?.fields[input.name])} />
        </label>
      </p>
      <FieldAlert problem={problem} field={input.name} />
    </>
  );
}

/** Checkboxes of one field, each labelled by its item (`options` are value and label pairs). */
export function CheckboxOptions({ name, options }: { name: string; options: readonly (readonly [string, string])[] }) {
  return options.map(([value, label]) => (
    <label key={value} className="checkbox">
      <input type="checkbox" name={name} value={value} /> {label}
    </label>
  ));
}
