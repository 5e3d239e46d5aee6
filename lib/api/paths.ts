/** Where server.ts hands a request: the API app (with the path it is to read), Next, or nowhere. */
export type RequestRoute = { to: "api"; url: string } | { to: "next" } | { to: "bad-request"; reason: string };

// Only the host is thrown away: the request target is parsed the way WHATWG URL parsers read it.
const BASE = "http://x";
// RFC 3986, 2.3: a percent-encoded unreserved character means the character itself.
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;
const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

/** True for the paths the API app answers: /v1, /v1/…, /healthz and /metrics. */
function isApiPathname(pathname: string): boolean {
  return pathname === "/v1" || pathname.startsWith("/v1/") || pathname === "/healthz" || pathname === "/metrics";
}

function parseTarget(raw: string): URL | undefined {
  try {
    // Origin form (`/…`; a backslash is a slash to a URL parser). `BASE + raw`, not `new URL(raw, BASE)`,
    // so that `//v1/…` is a path and not a scheme-relative URL naming host `v1`.
    if (raw.startsWith("/") || raw.startsWith("\\")) return new URL(BASE + raw);
    // Absolute form (`GET http://host./v1/… HTTP/1.1`), which Next would route by its path.
    if (/^https?:\/\//i.test(raw)) return new URL(raw);
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * The one routing decision of the server: /v1 has exactly one way in, whatever the spelling of its
 * path. The path is read as a URL parser reads it (`.`/`..`/`%2e` segments resolved, backslashes as
 * slashes, the absolute form's path taken), then percent-encoded unreserved characters decoded
 * (`/v%31/`) and repeated slashes collapsed, as Hono or Next would route it. A path that is /v1,
 * /healthz or /metrics in that form goes to the API app with that canonical path; so does one that only spells
 * it with encoded slashes (the API answers it 404), so that nothing /v1-ish ever reaches Next. A
 * path with a malformed or non-UTF-8 percent-encoding means nothing to either and is refused here.
 */
export function routeRequest(raw: string): RequestRoute {
  if (raw === "*") return { to: "next" }; // `OPTIONS *`, about the server as a whole
  const url = parseTarget(raw);
  if (!url) return { to: "bad-request", reason: "The request target is not a URL path" };
  const encoded = url.pathname;
  if (MALFORMED_ESCAPE.test(encoded)) return { to: "bad-request", reason: "The path has a malformed percent-encoding" };
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return { to: "bad-request", reason: "The path's percent-encoding is not UTF-8" };
  }
  const pathname = encoded
    .replace(ESCAPE, (escape, hex: string) => {
      const char = String.fromCharCode(parseInt(hex, 16));
      return UNRESERVED.test(char) ? char : escape;
    })
    .replace(/\/{2,}/g, "/");
  const api = { to: "api", url: pathname + url.search } as const;
  if (isApiPathname(pathname)) return api;
  // Every escape decoded too (`/%2Fv1/…`, `/v1%5C…`): still the API's, never Next's.
  const fully = parseTarget("/" + decoded.replace(/^[/\\]+/, ""))?.pathname.replace(/\/{2,}/g, "/");
  return fully !== undefined && isApiPathname(fully) ? api : { to: "next" };
}
