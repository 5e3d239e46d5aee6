"use client";

import { useState } from "react";
import { postJson, problemFrom, sendJson, type FormProblem } from "./field-errors";

/**
 * One JSON POST from a form of the account area: `busy` while it runs, the server's refusal as a
 * FormProblem (message and field errors), and the answer's `data` on success (null on refusal).
 */
export function useJsonPost<T>() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  async function post(url: string, body: unknown): Promise<T | null> {
    setBusy(true);
    setProblem(null);
    try {
      const response = await postJson(url, body);
      if (!response.ok) {
        setProblem(await problemFrom(response));
        return null;
      }
      return ((await response.json()) as { data: T }).data;
    } finally {
      setBusy(false);
    }
  }
  return { busy, problem, post };
}

export const UNREACHABLE_MESSAGE = "Could not reach the server. Check your connection and try again.";

/**
 * Requests of an account page's buttons, `busy` while one runs: the answer's `data`, or the
 * server's refusal, or the network's failure, as a message to show.
 */
export function useSend() {
  const [busy, setBusy] = useState(false);
  async function send(url: string, method: string, body?: unknown): Promise<{ ok: true; data: unknown } | { ok: false; message: string }> {
    setBusy(true);
    try {
      return await sendJson(url, method, body);
    } catch {
      return { ok: false, message: UNREACHABLE_MESSAGE };
    } finally {
      setBusy(false);
    }
  }
  return { busy, send };
}
