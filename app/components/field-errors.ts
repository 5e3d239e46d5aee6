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

/** POSTs JSON from an account page (same origin, so the session cookie and Origin header go along). */
export function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
}
