/** A same-site path to return to after sign-in; anything else (other hosts, `//evil`) falls back. */
export function safeReturnPath(value: unknown, fallback = "/account/api-keys"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return fallback;
  return value;
}
