import type { ReactNode } from "react";
import type { FormProblem } from "./field-errors";
import { FieldErrorMessage, invalidFieldProps } from "./invalid-field";

/**
 * A new password's field, the same on sign-up, reset and change: its label, the length hint the
 * server enforces (lib/accounts/credentials.ts), and the server's message for the field.
 */
export function NewPasswordField(props: { problem: FormProblem | null; id: string; name: string; label: string; minLength: number; extraHint?: string }) {
  const helpId = `${props.id}-help`;
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name}
        type="password"
        autoComplete="new-password"
        minLength={props.minLength}
        required
        {...invalidFieldProps(props.problem, props.name, helpId)}
      />
      <p id={helpId} className="muted">
        At least {props.minLength} characters, not a common password and not your e-mail address.{props.extraHint && ` ${props.extraHint}`}
      </p>
      <FieldErrorMessage problem={props.problem} field={props.name} />
    </>
  );
}

/** The end of an account form: the server's refusal, if any, then the submit button (and any other buttons). */
export function FormFooter(props: { problem: FormProblem | null; alert?: string; busy: boolean; label: string; busyLabel: string; children?: ReactNode }) {
  return (
    <>
      {props.problem && (
        <p role="alert" className="error">
          {props.alert ?? props.problem.message}
        </p>
      )}
      <p>
        <button type="submit" disabled={props.busy}>
          {props.busy ? props.busyLabel : props.label}
        </button>
        {props.children}
      </p>
    </>
  );
}

/** The e-mail field of the sign-up and password-reset forms, with the server's message for it. */
export function EmailField({ problem }: { problem: FormProblem | null }) {
  return (
    <>
      <label htmlFor="email">E-mail</label>
      <input id="email" name="email" type="email" autoComplete="email" required {...invalidFieldProps(problem, "email")} />
      <FieldErrorMessage problem={problem} field="email" />
    </>
  );
}

/** What a form that sent mail shows, saying where the link went when no mail server is configured (lib/mail). */
export function MailSentNotice({ delivery, children }: { delivery: "smtp" | "log"; children: ReactNode }) {
  return (
    <div role="status" className="notice">
      {children}
      {delivery === "log" && (
        <p>No mail server is configured on this server, so the message was written to the server log instead: check the server log for the link.</p>
      )}
    </div>
  );
}
