/** The variables read: PUBLIC_URL, NEXTAUTH_URL and PORT. */
export type PublicUrlEnv = Readonly<Record<string, string | undefined>>;

/**
 * The one public address of the service: what clients, browsers and e-mails use to reach it. It
 * is configured (PUBLIC_URL, else NEXTAUTH_URL, else http://localhost:$PORT), never read from a
 * request's Host or X-Forwarded-* headers, which any client can choose.
 */
export function publicOrigin(env: PublicUrlEnv = process.env): string {
  const configured = env.PUBLIC_URL || env.NEXTAUTH_URL;
  if (!configured) return `http://localhost:${env.PORT || 3000}`;
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new Error(`Invalid configuration: PUBLIC_URL must be an absolute http(s) URL, got ${JSON.stringify(configured)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`Invalid configuration: PUBLIC_URL must be an http:// or https:// URL, got ${JSON.stringify(configured)}`);
  }
  // Only scheme, host and port matter; a path would make every link built from it ambiguous.
  return url.origin;
}

/** True when the public URL is https: cookies are then `Secure` and HSTS is sent. */
export function isPublicHttps(env: PublicUrlEnv = process.env): boolean {
  return publicOrigin(env).startsWith("https:");
}

/**
 * Whether a request's Origin header names the public origin: scheme, host and port all equal
 * (an http page must not post to the https site, nor another port on the same host).
 */
export function isSameOrigin(originHeader: string | null | undefined, origin: string = publicOrigin()): boolean {
  if (!originHeader || originHeader === "null") return false;
  try {
    return new URL(originHeader).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}
