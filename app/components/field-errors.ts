/** The API's error envelope, as the account pages read it. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: { field: string; message: string }[] };
}

export interface FormProblem {
  message: string;
  fields: Record<string, string>;
}

export async function problemFrom(response: Response): Promise<FormProblem> {
  try {
    const body = (await response.json()) as ErrorEnvelope;
    const fields: Record<string, string> = {};
    for (const detail of body.error.details ?? []) fields[detail.field] = detail.message;
    return { message: body.error.message, fields };
  } catch {
    return { message: `The server answered ${response.status}. Try again.`, fields: {} };
  }
}

/**
 * Sends a request from an account page, with a JSON body when there is one: the answer's `data`,
 * or the server's message when it refuses. A network failure rejects.
 */
export async function sendJson(url: string, method: string, body?: unknown): Promise<{ ok: true; data: unknown } | { ok: false; message: string }> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!response.ok) return { ok: false, message: (await problemFrom(response)).message };
  return { ok: true, data: ((await response.json()) as { data: unknown }).data };
}

/** POSTs JSON from an account page (same origin, so the session cookie and Origin header go along). */
export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}
