import { parseApiKey } from "@/lib/keys/format";
import type { KeyMode } from "@/lib/keys/mode";

export type AuthorizationFailure = "missing" | "wrong_scheme" | "empty" | "malformed" | "bad_checksum";

export type ParsedAuthorization =
  | { ok: true; mode: KeyMode; key: string }
  | { ok: false; reason: AuthorizationFailure };

/**
 * Extracts the API key from an `Authorization` header value (`Bearer <key>`). The scheme is
 * case-insensitive and may be followed by one or more spaces (RFC 7235 `1*SP`); everything after
 * them must be exactly one well-formed key, so trailing whitespace or extra parts are malformed.
 */
export function parseAuthorizationHeader(value: string | null | undefined): ParsedAuthorization {
  if (value === null || value === undefined || value.trim() === "") {
    return { ok: false, reason: "missing" };
  }
  const space = value.indexOf(" ");
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== "bearer") return { ok: false, reason: "wrong_scheme" };

  let start = space === -1 ? value.length : space;
  while (value[start] === " ") start++;
  const credentials = value.slice(start);
  if (credentials.trim() === "") return { ok: false, reason: "empty" };

  return parseApiKey(credentials);
}
