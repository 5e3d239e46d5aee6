/** True for the paths the API app answers: /v1, /v1/… and /healthz (with any query string). */
export function isApiPath(url: string): boolean {
  const pathname = url.split("?", 1)[0] ?? "";
  return pathname === "/v1" || pathname.startsWith("/v1/") || pathname === "/healthz";
}
