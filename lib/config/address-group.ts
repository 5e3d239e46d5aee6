import { isIP } from "node:net";

/**
 * What a per-address throttle counts against: an IPv4 address itself, and an IPv6 address by its
 * /64. One IPv6 host is usually given a whole /64 (RFC 6177 advises at least that per site), so
 * counting single IPv6 addresses would give one machine 2^64 fresh allowances. An IPv4-mapped IPv6
 * address (`::ffff:192.0.2.1`) is the IPv4 address. Anything that is not an address is returned
 * as it came (trimmed), so it still counts against itself. Pure.
 */
export function addressGroup(address: string): string {
  const text = address.trim();
  const unbracketed = /^\[(.*)\]$/.exec(text)?.[1] ?? text;
  // A zone index (fe80::1%eth0) names an interface of this host, not another client.
  const bare = unbracketed.replace(/%.*$/, "");
  if (isIP(bare) !== 6) return text;
  const groups = expandIpv6(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 part read as two groups). */
function expandIpv6(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}
