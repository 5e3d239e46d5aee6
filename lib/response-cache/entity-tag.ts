import { createHash } from "node:crypto";

/** How a body is sent: as it is, or compressed with one of the codings the cache precompresses. */
export type ContentCoding = "identity" | "gzip" | "br";

/**
 * 128 bits of SHA-256 of what an answer says, base64url: the same content gives the same tag in
 * every process and after every rebuild, so a client's tag stays good until the content changes.
 */
export function contentHash(...parts: (string | Uint8Array)[]): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("base64url").slice(0, 22);
}

/**
 * The strong entity tag of the content sent with `coding`. Each coding has its own (RFC 9110
 * §8.8.3: a gzip body and the plain one are different representations), so a cache holding both
 * variants can tell them apart; a client that keeps its Accept-Encoding gets 304s all the same.
 */
export function entityTag(hash: string, coding: ContentCoding): string {
  return coding === "identity" ? `"${hash}"` : `"${hash}-${coding}"`;
}

/**
 * Whether an If-None-Match header names `tag` (or is `*`), so that a GET is answered 304 Not
 * Modified (RFC 9110 §13.1.2). The comparison is the weak one the RFC prescribes for this header:
 * a `W/` prefix is ignored. Tags are read quote to quote, since a tag may itself contain commas;
 * anything unparsable ends the list and matches nothing more.
 */
export function ifNoneMatchMatches(header: string | null | undefined, tag: string): boolean {
  if (!header) return false;
  let at = 0;
  while (at < header.length) {
    const char = header[at]!;
    if (char === " " || char === "\t" || char === ",") {
      at++;
      continue;
    }
    if (char === "*") return true;
    if (header.startsWith("W/", at)) at += 2;
    if (header[at] !== '"') return false;
    const end = header.indexOf('"', at + 1);
    if (end === -1) return false;
    if (header.slice(at, end + 1) === tag) return true;
    at = end + 1;
  }
  return false;
}
