import { BlockList, isIP } from "node:net";

/**
 * The reverse proxies whose `X-Forwarded-For` is believed. Everything else's is ignored: a client
 * talking to the server directly could otherwise write any address into the header and both dodge
 * the sign-in limits and forge the audit trail.
 */
export interface TrustedProxies {
  /** Whether `address` is one of the configured proxies. */
  has(address: string): boolean;
  /** False when none are configured: the socket's peer is always the client. */
  readonly any: boolean;
}

/**
 * Parses `TRUSTED_PROXIES`: a comma-separated list of IPv4 or IPv6 addresses and CIDR ranges
 * (`10.0.0.0/8, 192.0.2.7, fd00::/8`). Unset or empty trusts nobody. A malformed entry throws,
 * naming it, so a typo stops start-up instead of silently trusting the wrong hosts or no one.
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  let any = false;
  for (const raw of (value ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [address = "", prefix, ...extra] = entry.split("/");
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (!family || extra.length || !/^\d*$/.test(prefix ?? "") || prefix === "" || !Number.isInteger(bits) || bits > maxBits) {
      throw new Error(`Invalid configuration: TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
    list.addSubnet(address, bits, family === 6 ? "ipv6" : "ipv4");
    any = true;
  }
  return {
    any,
    has(address: string) {
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
    },
  };
}

/**
 * One hop of `X-Forwarded-For` as a bare address, or null when it is not one. Some proxies write
 * ports (`192.0.2.1:4711`, `[2001:db8::1]:4711`); an IPv4-mapped IPv6 address becomes IPv4.
 */
export function normalizeAddress(value: string | undefined | null): string | null {
  let text = (value ?? "").trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped) text = mapped[1]!;
  return isIP(text) ? text : null;
}

/**
 * The client's address for a request. When the socket's peer is a trusted proxy, `X-Forwarded-For`
 * is read from the right (each proxy appends the address it saw) and the first hop that is not
 * itself a trusted proxy is the client; what lies further left was written by the client and is
 * never believed. When the peer is not trusted, the header is ignored and the peer is the client.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  let client = normalizeAddress(socketAddress) ?? socketAddress ?? "";
  if (!trusted.any || !trusted.has(client)) return client;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? "");
  const hops = header.split(",").filter((hop) => hop.trim() !== "");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]);
    // A trusted proxy only ever appends real addresses; anything else is not worth more than the proxy.
    if (!hop) return client;
    client = hop;
    if (!trusted.has(hop)) return hop;
  }
  return client;
}
