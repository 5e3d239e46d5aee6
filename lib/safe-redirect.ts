/** Where sign-in lands when the requested return target is missing or refused. */
export const DEFAULT_RETURN_PATH = "/account/api-keys";

// Stands in for the site's own origin when the caller has none at hand: only its identity matters,
// since a target survives only when it resolves to the same origin as this base.
const OWN_ORIGIN = "http://own-site.invalid";

const MAX_TARGET_LENGTH = 2048;

// Control characters (C0, DEL, C1), every Unicode space and line or paragraph separator, and the
// invisible format characters (zero-width space, joiners, word joiner, BOM, bidi controls).
// Browsers silently drop tab, CR and LF inside URLs ("/\t/evil.example" becomes "//evil.example"),
// and a raw non-ASCII or control character in a Location header makes Node throw. None belongs in a
// return path, so any of them refuses the whole target rather than being cleaned out.
const UNSAFE_CHARACTER = /[\u0000-\u001f\u007f-\u009f\s\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/u;

/**
 * A same-site path (and query) to return to after sign-in; anything else falls back. The target
 * is parsed as a URL against the site's own origin exactly as a browser would (so `//evil`,
 * `/\evil`, `https://evil`, `javascript:` resolve elsewhere and are refused), and only the parsed
 * path and query are kept: what is returned is plain ASCII, percent-encoded, starting with one `/`.
 * `origin` is the site's origin when known (next-auth's redirect callback gets absolute URLs).
 */
export function safeReturnPath(value: unknown, fallback = DEFAULT_RETURN_PATH, origin = OWN_ORIGIN): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_TARGET_LENGTH) return fallback;
  if (UNSAFE_CHARACTER.test(value)) return fallback;
  // Only paths or absolute URLs of the site itself: a relative "account" or "?x" means nothing here.
  if (!value.startsWith("/") && !value.toLowerCase().startsWith(`${origin.toLowerCase()}/`)) return fallback;
  let url: URL;
  let base: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin || url.username || url.password) return fallback;
  // Dot segments can collapse into a scheme-relative path ("/.//evil" is "//evil" once parsed).
  if (url.pathname.startsWith("//") || url.pathname.includes("\\")) return fallback;
  return `${url.pathname}${url.search}`;
}
