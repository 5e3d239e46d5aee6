import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_URLS is on: everything that is not
 * a public unicast address, so an endpoint URL cannot be used to probe the service's own network
 * (SSRF). IPv4-mapped, IPv4-translated, IPv4-compatible and NAT64 IPv6 addresses are judged by the
 * IPv4 address they carry; the local-use NAT64 prefix (RFC 8215) translates into whatever network
 * the operator's NAT64 serves, so it is refused whole.
 */
const FORBIDDEN_V4: readonly [string, number, string][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "carrier-grade NAT"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "6to4 relay"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];
const FORBIDDEN_V6: readonly [string, number, string][] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["64:ff9b:1::", 48, "local-use NAT64"],
  ["100::", 64, "discard-only"],
  ["2001::", 23, "IETF protocol assignments"],
  ["2001:db8::", 32, "documentation"],
  ["2002::", 16, "6to4"],
  ["fc00::", 7, "unique-local"],
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"],
  ["ff00::", 8, "multicast"],
];

const lists = (() => {
  const build = (entries: readonly [string, number, string][], family: "ipv4" | "ipv6") =>
    entries.map(([network, prefix, label]) => {
      const list = new BlockList();
      list.addSubnet(network, prefix, family);
      return { list, label };
    });
  return { v4: build(FORBIDDEN_V4, "ipv4"), v6: build(FORBIDDEN_V6, "ipv6") };
})();

/** Why an address may not be reached ("loopback", "private" …), or null for a public unicast address; an unparsable text is refused too. */
export function forbiddenAddressReason(address: string): string | null {
  const family = isIP(address);
  if (family === 4) return lists.v4.find(({ list }) => list.check(address, "ipv4"))?.label ?? null;
  if (family !== 6) return "not an IP address";
  const embedded = embeddedIpv4(address);
  if (embedded) return forbiddenAddressReason(embedded);
  return lists.v6.find(({ list }) => list.check(address, "ipv6"))?.label ?? null;
}

/**
 * The IPv4 address an IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d),
 * IPv4-compatible (::a.b.c.d) or NAT64 (64:ff9b::/96) address carries.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const head = groups.slice(0, 6);
  const zeros = (n: number) => head.slice(0, n).every((g) => g === 0);
  const mapped = zeros(5) && head[5] === 0xffff;
  const translated = zeros(4) && head[4] === 0xffff && head[5] === 0;
  const compatible = zeros(6) && (groups[6]! !== 0 || groups[7]! > 1); // not :: or ::1
  const nat64 = head[0] === 0x64 && head[1] === 0xff9b && head.slice(2).every((g) => g === 0);
  if (!mapped && !translated && !compatible && !nat64) return null;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
}

/** An IPv6 address as its eight 16-bit groups (a trailing dotted IPv4 part included), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const octets = dotted[1]!.split(".").map(Number);
    text = text.slice(0, -dotted[1]!.length) + `${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const [left, right] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const head = parse(left);
  const tail = right === undefined ? [] : parse(right);
  const groups = right === undefined ? head : [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}
