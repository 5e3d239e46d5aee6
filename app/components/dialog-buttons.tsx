import type { RefObject } from "react";

interface Props {
  dialog: RefObject<HTMLDialogElement | null>;
  error: string | null;
  busy: boolean;
  label: string;
  danger?: boolean;
  onConfirm: () => void;
}

/** The end of a confirmation dialog: the server's refusal if any, the confirming button and Cancel. */
export function DialogButtons({ dialog, error, busy, label, danger, onConfirm }: Props) {
  return (
    <>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <p>
        <button type="button" className={danger ? "danger" : undefined} disabled={busy} onClick={onConfirm}>
          {label}
        </button>{" "}
        <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
      </p>
    </>
  );
}
