/**
 * The security headers of every surface, in one place: server.ts puts the baseline on every
 * response it serves, proxy.ts adds the page policy (with a fresh nonce) to pages and /api/*, and
 * the API app adds the API policy to /v1 and /healthz under either mount (docs/decisions/cors-and-security-headers.md).
 */

/** A year, the value HSTS preload lists ask for; only ever sent when the public URL is https. */
const HSTS = "max-age=31536000; includeSubDomains";

/** Headers every response carries, whatever produced it. */
export function baselineSecurityHeaders(https: boolean): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // The site uses none of these; a script injected despite the CSP gets none of them either.
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    // frame-ancestors 'none' is the CSP form; this is for browsers that predate it.
    "X-Frame-Options": "DENY",
    ...(https && { "Strict-Transport-Security": HSTS }),
  };
}

/** JSON answers run nothing and embed nothing: the tightest policy there is. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The pages' policy. Scripts: only Next's own, which carry the per-request nonce, and what they
 * load ('strict-dynamic' trusts the chunks and swagger-ui's bundle, all from this origin). Styles
 * may be inline: swagger-ui and React set style attributes, which a nonce cannot cover. `next dev`
 * evaluates modules with eval and reloads over a WebSocket, so development adds those two.
 */
export function pageContentSecurityPolicy(nonce: string, options: { https: boolean; dev: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${options.dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** A nonce for one response: 128 random bits, base64 (CSP's nonce-source syntax). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * CORS for /v1 (docs/decisions/cors-and-security-headers.md): any origin may call it, because a key, not a cookie,
 * authenticates, so a foreign page can only use a key its user handed it. Credentials are never
 * allowed, so cookies of this site never ride along.
 */
export const CORS_ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-None-Match";
export const CORS_EXPOSED_HEADERS =
  "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, " +
  "Idempotent-Replayed, Allow, Location, ETag";
export const CORS_ALLOWED_METHODS = "GET, POST, PATCH, DELETE";

/** Headers on every /v1 answer, so a browser lets the calling page read it. */
export const CORS_RESPONSE_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS,
};

/** The answer to a preflight: no key needed (browsers never send one on a preflight), cached a day. */
export const CORS_PREFLIGHT_HEADERS: Record<string, string> = {
  ...CORS_RESPONSE_HEADERS,
  "Access-Control-Allow-Methods": CORS_ALLOWED_METHODS,
  "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
  "Access-Control-Max-Age": "86400",
};

/** A CORS preflight, as opposed to a plain OPTIONS request (which /v1 answers like any other method). */
export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.has("origin") && request.headers.has("access-control-request-method");
}
