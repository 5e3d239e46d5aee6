/** "2026-11-21 19:04 UTC": the same text on the server and in the browser, whatever their time zones. */
export function formatUtc(iso: string | Date | null | undefined, fallback = "Never"): string {
  if (!iso) return fallback;
  const date = typeof iso === "string" ? new Date(iso) : iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
