import { clientAddress, type TrustedProxies } from "@/lib/config/client-address";

/**
 * The client's address for a request that reaches the API through Next's route handler (`next dev`,
 * `next start`, serverless hosts), which gives a handler no socket. The right-most X-Forwarded-For
 * hop stands in for the socket's peer: Next writes the peer there when a request carries no
 * X-Forwarded-For, and a hosting platform's proxy appends (or writes) the address it saw. From
 * there TRUSTED_PROXIES applies exactly as in server.ts. A client talking straight to an exposed
 * `next start` can still write its own X-Forwarded-For, which is one more reason production runs
 * server.ts (docs/ARCHITECTURE.md, section 3).
 */
export function forwardedClientAddress(forwardedFor: string | null, trusted: TrustedProxies): string | null {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  const peer = hops.pop();
  if (peer === undefined) return null;
  return clientAddress(peer, hops.join(","), trusted) || null;
}

/**
 * `request` with X-Real-IP overwritten as server.ts overwrites it (removed when no address is
 * known), so that the API app reads the client's address, for the failed-key throttle and the
 * keys' IP allowlists, the same way under both mounts and never from a header the client chose.
 */
export function withClientAddress(request: Request, trusted: TrustedProxies): Request {
  const headers = new Headers(request.headers);
  const address = forwardedClientAddress(headers.get("x-forwarded-for"), trusted);
  if (address) headers.set("x-real-ip", address);
  else headers.delete("x-real-ip");
  return new Request(request, { headers });
}
