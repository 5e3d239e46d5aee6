import { useRef, useState } from "react";
import { postJson, problemFrom } from "../../components/field-errors";

/**
 * One key action confirmed in a dialog: POSTs to `url`, shows the server's message in the dialog on
 * failure, and on success closes the dialog and hands the response's `data` to `onDone`.
 */
export function useKeyAction<T>(url: string, onDone: (data: T) => void) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(body: unknown) {
    setBusy(true);
    setError(null);
    const response = await postJson(url, body);
    setBusy(false);
    if (!response.ok) return setError((await problemFrom(response)).message);
    dialog.current?.close();
    onDone(((await response.json()) as { data: T }).data);
  }

  return { dialog, error, busy, run };
}
