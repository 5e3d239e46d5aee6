/** An endpoint's state in words, as the webhook pages show it. */
export function endpointStatus(endpoint: { enabled: boolean; disabled_reason: string | null }): string {
  if (endpoint.enabled) return "Enabled";
  return endpoint.disabled_reason === "failing" ? "Disabled: failing for 3 days" : "Disabled";
}
