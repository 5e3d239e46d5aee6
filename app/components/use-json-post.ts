"use client";

import { useState } from "react";
import { postJson, problemFrom, type FormProblem } from "./field-errors";

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
