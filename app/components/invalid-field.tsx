import type { FormProblem } from "./field-errors";

/** The id of a field's error message, so the control can point at it ("expiry.date" → "expiry-date-error"). */
function errorId(field: string): string {
  return `${field.replace(/[^A-Za-z0-9_-]/g, "-")}-error`;
}

/**
 * The aria attributes for a control whose field the server may have rejected: "Check the highlighted
 * fields" only helps if the field is marked invalid (styled in globals.css) and names its message.
 * `helpIds` are descriptions the control always has, such as a password's length hint.
 */
export function invalidFieldProps(problem: FormProblem | null, field: string, ...helpIds: string[]) {
  const invalid = Boolean(problem?.fields[field]);
  const describedBy = [...helpIds, ...(invalid ? [errorId(field)] : [])].join(" ");
  return {
    "aria-invalid": invalid ? ("true" as const) : undefined,
    "aria-describedby": describedBy || undefined,
  };
}

/** The server's message for one field, with the id that `invalidFieldProps` points at. */
export function FieldErrorMessage({ problem, field }: { problem: FormProblem | null; field: string }) {
  const message = problem?.fields[field];
  if (!message) return null;
  return (
    <p id={errorId(field)} className="field-error">
      {message}
    </p>
  );
}
