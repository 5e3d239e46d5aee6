import type { ContentCoding } from "./entity-tag";

/**
 * The coding to send a compressible body with, from an Accept-Encoding header (RFC 9110 §12.5.3):
 * brotli or gzip when the client accepts one (`q` above 0, named or through `*`), the higher `q`
 * first and brotli on a tie (it is the smaller); `identity` when it accepts neither, when it
 * weighs `identity` above both, or when it sends no header. `x-gzip` counts as gzip.
 */
export function negotiateEncoding(header: string | null | undefined): ContentCoding {
  if (!header) return "identity";
  const weights = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name = "", ...parameters] = entry.split(";");
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let weight = 1;
    for (const parameter of parameters) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(parameter);
      if (match) weight = Number(match[1]);
    }
    if (!Number.isFinite(weight)) continue;
    weights.set(coding === "x-gzip" ? "gzip" : coding, weight);
  }
  const star = weights.get("*");
  const weightOf = (coding: string) => weights.get(coding) ?? star ?? 0;
  const br = weightOf("br");
  const gzip = weightOf("gzip");
  const best: ContentCoding = br >= gzip ? "br" : "gzip";
  const bestWeight = Math.max(br, gzip);
  if (bestWeight <= 0) return "identity";
  const identity = weights.get("identity");
  return identity !== undefined && identity > bestWeight ? "identity" : best;
}
