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
  /**
   * The venue answers only the rows asked for: of the reply's list of rows (the first list of
   * objects with `field`), those whose `field` is among the request's `query` parameter
   * (comma-separated), as HTX's current funding rates and edgeX's funding rows answer a list of
   * contracts. Without it every request gets every row, which a widened replay (bench:market)
   * made 60 answers of all 600 rows where HTX sends 10 each.
   */
  rowsBy?: { query: string; field: string };
  /**
   * The venue answers only the columns asked for: each row of the reply's list (a list of objects
   * at its top) with only the keys named in the request's `query` parameter (comma-separated), as
   * BitMEX's `columns` selects an instrument's fields. Without the parameter, every column.
   */
  columnsBy?: { query: string };
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/**
 * A stand-in for the network that ccxt calls through `fetchImplementation`: answers from recorded
 * (or test-built) payloads by method, path, query and body, records every request (unless told
 * not to), and answers 404 (or `options.unmatched`) to anything without a recording so a test sees
 * exactly which calls a connector makes.
 */
export function createReplayFetch(
  routes: readonly ReplayRoute[],
  /** `record: false` keeps no requests (a benchmark replaying thousands a round for minutes). */
  options: { unmatched?: ReplayReply; record?: boolean } = {},
): {
  fetchImplementation: FetchImplementation;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  // By method and path, in recorded order: a widened replay (bench:market) has hundreds of routes
  // on one path, and a linear search for each request took more of its round than the venue's parse.
  const byPath = new Map<string, IndexedRoute[]>();
  for (const route of routes) {
    const key = `${route.method ?? "GET"} ${route.path}`;
    const list = byPath.get(key) ?? [];
    list.push({ route, query: Object.entries(route.query ?? {}), body: Object.entries(route.body ?? {}) });
    byPath.set(key, list);
  }
  const finders = new Map([...byPath].map(([key, list]) => [key, routeFinder(list)]));
  const fetchImplementation: FetchImplementation = async (url: string, init: FetchInit) => {
    const parsed = new URL(url);
    const method = (init.method ?? "GET").toUpperCase();
    const query = Object.fromEntries(parsed.searchParams);
    const body = parseBody(init.body);
    if (options.record !== false) requests.push({ method, path: parsed.pathname, query, body });
    const found = finders.get(`${method} ${parsed.pathname}`)?.(query, body);
    const route = found?.route;
    const asked = route?.rowsBy && query[route.rowsBy.query];
    if (found && asked !== undefined && "body" in found.route.reply) return json(found.route.reply.status ?? 200, rowsAsked(found, asked.split(",")) ?? found.route.reply.body);
    const columns = route?.columnsBy && query[route.columnsBy.query];
    if (found && columns !== undefined && "body" in found.route.reply) return json(found.route.reply.status ?? 200, columnsAsked(found.route, columns));
    const reply = route?.reply ??
      options.unmatched ?? { status: 404, body: { code: -1, msg: `no recording for ${method} ${parsed.pathname}` } };
    if ("hang" in reply) return hang(init.signal);
    if ("fail" in reply) throw reply.fail;
    return json(reply.status ?? 200, typeof reply.body === "string" ? bytesOf(reply, reply.body) : reply.body);
  };
  return { fetchImplementation, requests };
}

/**
 * A route with what it asks of the query and body listed once: a path can have hundreds of routes
 * (a widened GRVT ticker, one per instrument), each tried for every request to it, and listing
 * them per try made 26 MB of garbage a round.
 */
interface IndexedRoute {
  route: ReplayRoute;
  query: [string, string][];
  body: [string, unknown][];
  /** A `rowsBy` route's rows, indexed on first use; null when its reply has none. */
  rows?: RowsIndex | null;
}

/**
 * Text replies as the bytes a socket hands over, each encoded on its first request: encoding the
 * text again for every request (a widened replay's 20 MB a round, bench:market) was work no live
 * fetch does. Keyed by the reply, which a test may replace on its route between requests.
 */
const encodedReplies = new WeakMap<ReplayReply, Uint8Array<ArrayBuffer>>();

function bytesOf(reply: ReplayReply, text: string): Uint8Array<ArrayBuffer> {
  let bytes = encodedReplies.get(reply);
  if (!bytes) encodedReplies.set(reply, (bytes = new TextEncoder().encode(text)));
  return bytes;
}

/** A `rowsBy` reply's text before and after its rows, and each row's place and text by its field's value. */
interface RowsIndex {
  before: string;
  after: string;
  byValue: Map<string, { at: number; text: string }[]>;
}

/**
 * The reply of a `rowsBy` route with only the rows whose field is one of `values`, in the reply's
 * order; undefined when the reply has no such rows (an error answer), which is then sent whole.
 */
function rowsAsked(indexed: IndexedRoute, values: readonly string[]): string | undefined {
  if (indexed.rows === undefined) indexed.rows = indexRows(indexed.route);
  const index = indexed.rows;
  if (index === null) return undefined;
  const { before, after, byValue } = index;
  // The asked values' rows, in the reply's order: looked up, not found among all 600 rows of a
  // widened reply for each of a round's requests.
  const asked = [...new Set(values)].flatMap((value) => byValue.get(value) ?? []).sort((a, b) => a.at - b.at);
  return `${before}[${asked.map((row) => row.text).join(",")}]${after}`;
}

/**
 * A `columnsBy` route's answers by the columns asked, each made and encoded once. Keyed by the
 * reply, as `encodedReplies` is: a test may replace it on its route between requests.
 */
const cutReplies = new WeakMap<ReplayReply, Map<string, Uint8Array<ArrayBuffer>>>();

/**
 * The reply of a `columnsBy` route with each of its rows cut to the columns `asked` names (a
 * comma-separated list); a reply that is not a list of rows (an error answer) is sent whole.
 */
function columnsAsked(route: ReplayRoute, asked: string): Uint8Array<ArrayBuffer> {
  const reply = route.reply as { body: unknown };
  let answers = cutReplies.get(route.reply);
  if (!answers) cutReplies.set(route.reply, (answers = new Map()));
  let bytes = answers.get(asked);
  if (!bytes) {
    const body = typeof reply.body === "string" ? (JSON.parse(reply.body) as unknown) : reply.body;
    const names = asked.split(",");
    const cut = (row: unknown) =>
      typeof row === "object" && row !== null ? Object.fromEntries(names.filter((name) => name in row).map((name) => [name, (row as Record<string, unknown>)[name]])) : row;
    answers.set(asked, (bytes = new TextEncoder().encode(JSON.stringify(Array.isArray(body) ? body.map(cut) : body))));
  }
  return bytes;
}

function indexRows(route: ReplayRoute): RowsIndex | null {
  const { field } = route.rowsBy!;
  const reply = route.reply as { body: unknown };
  const body = typeof reply.body === "string" ? (JSON.parse(reply.body) as unknown) : structuredClone(reply.body);
  const MARK = "\u0000rows\u0000";
  let list: Record<string, unknown>[] | undefined;
  // The first list of objects carrying `field`, replaced by a mark to cut the text around it.
  const find = (value: unknown): unknown => {
    if (list || typeof value !== "object" || value === null) return value;
    if (Array.isArray(value) && value.some((row) => typeof row === "object" && row !== null && field in row)) {
      list = value as Record<string, unknown>[];
      return MARK;
    }
    for (const [key, item] of Object.entries(value)) (value as Record<string, unknown>)[key] = find(item);
    return value;
  };
  const marked = JSON.stringify(find(body));
  if (!list) return null;
  const [before, after] = marked.split(JSON.stringify(MARK)) as [string, string];
  const byValue = new Map<string, { at: number; text: string }[]>();
  list.forEach((row, at) => {
    const value = String(row[field]);
    byValue.set(value, [...(byValue.get(value) ?? []), { at, text: JSON.stringify(row) }]);
  });
  return { before, after, byValue };
}

/** Routes on a path beyond which they are looked up by a field every one of them asks, not tried in turn. */
const TRIED_IN_TURN = 8;

/**
 * The first of a path's routes (in recorded order) that a request matches. A path of many routes
 * (a widened replay asks one instrument a request: 600 routes on one path, each tried for each of
 * 600 requests, was a tenth of a round's parsing) is indexed by a query or body field every route
 * asks, when there is one: only the routes asking the request's value of it can match.
 */
function routeFinder(routes: readonly IndexedRoute[]): (query: Record<string, string>, body: unknown) => IndexedRoute | undefined {
  const tryInTurn = (candidates: readonly IndexedRoute[], query: Record<string, string>, body: unknown) => candidates.find((candidate) => matches(candidate, query, body));
  const shared = routes.length > TRIED_IN_TURN ? sharedField(routes) : undefined;
  if (!shared) return (query, body) => tryInTurn(routes, query, body);
  const byValue = new Map<unknown, IndexedRoute[]>();
  for (const route of routes) {
    const value = (shared.in === "query" ? route.query : route.body).find(([key]) => key === shared.key)![1];
    const same = byValue.get(value);
    if (same) same.push(route);
    else byValue.set(value, [route]);
  }
  return (query, body) => {
    const fields = shared.in === "query" ? query : typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
    return tryInTurn(byValue.get(fields[shared.key]) ?? [], query, body);
  };
}

/** A query or body field that every one of `routes` asks, if any. */
function sharedField(routes: readonly IndexedRoute[]): { in: "query" | "body"; key: string } | undefined {
  for (const place of ["query", "body"] as const) {
    const [first, ...rest] = routes.map((route) => new Set(route[place].map(([key]) => key)));
    const key = [...first!].find((name) => rest.every((keys) => keys.has(name)));
    if (key !== undefined) return { in: place, key };
  }
  return undefined;
}

/** Whether a route of the request's method and path asks nothing the request's query and body lack. */
function matches(candidate: IndexedRoute, query: Record<string, string>, body: unknown): boolean {
  for (const [key, value] of candidate.query) if (query[key] !== value) return false;
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  for (const [key, value] of candidate.body) if (fields[key] !== value) return false;
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
  const text = typeof body === "string" || body instanceof Uint8Array ? (body as string | Uint8Array<ArrayBuffer>) : JSON.stringify(body);
  return new Response(text, { status, headers: { "content-type": "application/json" } });
}

function hang(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
  });
}
