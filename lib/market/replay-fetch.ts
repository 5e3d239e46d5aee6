import type { FetchImplementation, FetchInit } from "./connectors/venue-adapter";

export type ReplayReply =
  /** A JSON body; strings are sent verbatim so recorded payloads keep their exact text. */
  | { status?: number; body: unknown }
  /** Never answers; rejects with an AbortError once ccxt aborts the request. */
  | { hang: true }
  /** The transport fails (DNS, reset, …). */
  | { fail: Error };

export interface ReplayRoute {
  method?: "GET" | "POST";
  /** URL path, e.g. `/fapi/v1/premiumIndex`. */
  path: string;
  /** Query parameters that must be present with these values (others are ignored). */
  query?: Record<string, string>;
  /** For POST: top-level JSON body fields that must match, e.g. `{type: "metaAndAssetCtxs"}`. */
  body?: Record<string, unknown>;
  reply: ReplayReply;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/**
 * A stand-in for the network that ccxt calls through `fetchImplementation`: answers from recorded
 * (or test-built) payloads by method, path, query and body, records every request, and answers 404
 * (or `options.unmatched`) to anything without a recording so a test sees exactly which calls a
 * connector makes.
 */
export function createReplayFetch(
  routes: readonly ReplayRoute[],
  options: { unmatched?: ReplayReply } = {},
): {
  fetchImplementation: FetchImplementation;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const fetchImplementation: FetchImplementation = async (url: string, init: FetchInit) => {
    const parsed = new URL(url);
    const method = (init.method ?? "GET").toUpperCase();
    const query = Object.fromEntries(parsed.searchParams);
    const body = parseBody(init.body);
    requests.push({ method, path: parsed.pathname, query, body });
    const route = routes.find((candidate) => matches(candidate, method, parsed.pathname, query, body));
    const reply = route?.reply ??
      options.unmatched ?? { status: 404, body: { code: -1, msg: `no recording for ${method} ${parsed.pathname}` } };
    if ("hang" in reply) return hang(init.signal);
    if ("fail" in reply) throw reply.fail;
    return json(reply.status ?? 200, reply.body);
  };
  return { fetchImplementation, requests };
}

function matches(
  route: ReplayRoute,
  method: string,
  path: string,
  query: Record<string, string>,
  body: unknown,
): boolean {
  if ((route.method ?? "GET") !== method || route.path !== path) return false;
  for (const [key, value] of Object.entries(route.query ?? {})) if (query[key] !== value) return false;
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(route.body ?? {})) if (fields[key] !== value) return false;
  return true;
}

function parseBody(body: string | undefined): unknown {
  if (body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function json(status: number, body: unknown): Response {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return new Response(text, { status, headers: { "content-type": "application/json" } });
}

function hang(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
  });
}
