import type { ComponentProps, ReactNode } from "react";
import { DialogButtons } from "./dialog-buttons";

type Buttons = ComponentProps<typeof DialogButtons>;

/**
 * An action confirmed in a modal dialog (opened with `dialog.current?.showModal()`): the question as
 * its heading, what the action does (the children), then the server's refusal if any, the confirming
 * button and Cancel. `name` is the dialog's accessible name, the one tests and screen readers find it by.
 */
export function ConfirmDialog({ name, title, children, dialog, ...buttons }: Buttons & { name: string; title: ReactNode; children: ReactNode }) {
  return (
    <dialog ref={dialog} aria-label={name}>
      <h3>{title}</h3>
      {children}
      <DialogButtons dialog={dialog} {...buttons} />
    </dialog>
  );
}
