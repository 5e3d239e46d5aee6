/**
 * A key's IP allowlist: IPv4 and IPv6 addresses and CIDR ranges the key accepts requests from (an
 * empty list accepts any address). Parsed and written in one canonical form when the owner saves
 * it, and compiled once per verified key (lib/keys/verify-key.ts), so a request only compares
 * integers. No node:net here: the account page's form splits and checks entries with it too.
 *
 * Rules, as the account page and /docs state them:
 * - a bare address is that one address (/32 or /128) and is written without a prefix;
 * - a range must name its network: `10.0.0.1/8` is refused rather than read as `10.0.0.0/8`,
 *   since it is as likely a typo for `10.0.0.1/32`, and silently opening 16 million addresses to
 *   a key is the worse mistake;
 * - IPv4-mapped IPv6 (`::ffff:1.2.3.4`, how a dual-stack socket reports an IPv4 client) is IPv4,
 *   in an entry (`::ffff:10.0.0.0/104` is `10.0.0.0/8`) and in a request's address alike;
 * - at most MAX_ALLOWLIST_ENTRIES entries; duplicates are kept once.
 */

export const MAX_ALLOWLIST_ENTRIES = 32;
// The longest real entry, an IPv6 address with an embedded IPv4 part and a prefix, has 49 characters.
const MAX_ENTRY_LENGTH = 64;

type Address = { family: 4; value: number; mapped: boolean } | { family: 6; value: bigint };

const V6_BITS = 128n;
const V6_ALL = (1n << V6_BITS) - 1n;

function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    // Leading zeros are refused: some parsers read "010" as octal 8, others as decimal 10.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** The 16-bit groups of one side of "::"; an embedded IPv4 part is allowed only at the very end. */
function groupsOf(side: string, mayEndInIPv4: boolean): number[] | null {
  if (side === "") return [];
  const parts = side.split(":");
  const groups: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (mayEndInIPv4 && i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIPv4(part);
      if (v4 === null) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIPv6(text: string): bigint | null {
  const sides = text.split("::");
  if (sides.length > 2) return null;
  const head = groupsOf(sides[0]!, sides.length === 1);
  const tail = sides.length === 2 ? groupsOf(sides[1]!, true) : [];
  if (!head || !tail) return null;
  const written = head.length + tail.length;
  // Without "::" all eight groups are written; "::" stands for at least one group of zeros.
  if (sides.length === 1 ? written !== 8 : written > 7) return null;
  let value = 0n;
  for (const group of [...head, ...new Array<number>(8 - written).fill(0), ...tail]) value = (value << 16n) | BigInt(group);
  return value;
}

function parseAddress(text: string): Address | null {
  if (!text.includes(":")) {
    const value = parseIPv4(text);
    return value === null ? null : { family: 4, value, mapped: false };
  }
  const value = parseIPv6(text);
  if (value === null) return null;
  if (value >> 32n === 0xffffn) return { family: 4, value: Number(value & 0xffffffffn), mapped: true };
  return { family: 6, value };
}

function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

/** RFC 5952: lowercase, no leading zeros, the longest run of two or more zero groups (the first on a tie) as "::". */
function formatIPv6(value: bigint): string {
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === "0") end++;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end === start ? start + 1 : end;
  }
  if (bestStart < 0) return groups.join(":");
  return `${groups.slice(0, bestStart).join(":")}::${groups.slice(bestStart + bestLength).join(":")}`;
}

function v4Mask(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0; // a shift by 32 would be a shift by 0
}

function v6Mask(prefix: number): bigint {
  return V6_ALL ^ ((1n << (V6_BITS - BigInt(prefix))) - 1n);
}

interface Rule {
  family: 4 | 6;
  /** The network, as an unsigned 32-bit number (IPv4) or a 128-bit bigint (IPv6). */
  network: number | bigint;
  prefix: number;
}

type EntryResult = { ok: true; canonical: string; rule: Rule } | { ok: false; problem: string };

/** One entry as the owner wrote it, checked and in canonical form. */
export function parseAllowlistEntry(raw: string): EntryResult {
  const entry = raw.trim();
  const quoted = entry.length > MAX_ENTRY_LENGTH ? `"${entry.slice(0, MAX_ENTRY_LENGTH)}…"` : `"${entry}"`;
  const invalid = { ok: false as const, problem: `${quoted} is not an IPv4 or IPv6 address or CIDR range` };
  if (entry.length > MAX_ENTRY_LENGTH) return invalid;
  const [addressText = "", prefixText, ...rest] = entry.split("/");
  const address = parseAddress(addressText);
  if (!address || rest.length) return invalid;
  const writtenBits = address.family === 6 || address.mapped ? 128 : 32;
  let prefix = writtenBits;
  if (prefixText !== undefined) {
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > writtenBits) {
      return { ok: false, problem: `${quoted}: the prefix length of an ${writtenBits === 32 ? "IPv4" : "IPv6"} range is 0 to ${writtenBits}` };
    }
    prefix = Number(prefixText);
  }
  if (address.family === 4 && address.mapped) {
    if (prefix < 96) return { ok: false, problem: `${quoted}: an IPv4-mapped range (::ffff:…) needs a prefix of at least /96` };
    prefix -= 96;
  }
  let network: number | bigint;
  let text: string;
  if (address.family === 4) {
    network = (address.value & v4Mask(prefix)) >>> 0;
    if (network !== address.value) return hostBitsSet(quoted, formatIPv4(network), prefix, formatIPv4(address.value));
    text = formatIPv4(network);
  } else {
    network = address.value & v6Mask(prefix);
    if (network !== address.value) return hostBitsSet(quoted, formatIPv6(network), prefix, formatIPv6(address.value));
    text = formatIPv6(network);
  }
  const full = address.family === 4 ? 32 : 128;
  return { ok: true, canonical: prefix === full ? text : `${text}/${prefix}`, rule: { family: address.family, network, prefix } };
}

function hostBitsSet(quoted: string, network: string, prefix: number, address: string): EntryResult {
  return {
    ok: false,
    problem: `${quoted} has bits set after its /${prefix} prefix: write ${network}/${prefix} for the range, or ${address} for the one address`,
  };
}

export type AllowlistResult = { ok: true; entries: string[] } | { ok: false; problem: string };

/**
 * The entries as stored: each checked and canonical, blanks skipped, duplicates kept once. Refused
 * as a whole when any entry is invalid, naming each invalid one, or when there are too many.
 */
export function parseAllowlist(entries: readonly string[]): AllowlistResult {
  const written = entries.map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (written.length > MAX_ALLOWLIST_ENTRIES) {
    return {
      ok: false,
      problem: `An allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries; this one has ${written.length}. Use CIDR ranges to cover several addresses.`,
    };
  }
  const canonical: string[] = [];
  const problems: string[] = [];
  for (const entry of written) {
    const parsed = parseAllowlistEntry(entry);
    if (parsed.ok) {
      if (!canonical.includes(parsed.canonical)) canonical.push(parsed.canonical);
    } else {
      problems.push(parsed.problem);
    }
  }
  if (problems.length) return { ok: false, problem: problems.join("; ") };
  return { ok: true, entries: canonical };
}

/** The entries of the account page's text field: separated by commas, spaces or line breaks. */
export function splitAllowlistText(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== "");
}

/** Decides whether a request's address is in a key's allowlist, with the entries parsed once. */
export class AllowlistMatcher {
  private readonly v4: { network: number; mask: number }[] = [];
  private readonly v6: { network: bigint; mask: bigint }[] = [];

  /**
   * `entries` as stored. One that does not parse (only a hand-edited row could hold one) is left
   * out, which narrows the list: a key whose every entry is unreadable accepts no address at all.
   */
  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const parsed = parseAllowlistEntry(entry);
      if (!parsed.ok) continue;
      const { rule } = parsed;
      if (rule.family === 4) this.v4.push({ network: rule.network as number, mask: v4Mask(rule.prefix) });
      else this.v6.push({ network: rule.network as bigint, mask: v6Mask(rule.prefix) });
    }
  }

  /** False for an unknown or unreadable address: a key limited to some addresses is never used from an unknown one. */
  allows(address: string | null | undefined): boolean {
    if (!address) return false;
    // A link-local peer may carry its interface ("fe80::1%eth0"); the interface says nothing about the sender.
    const parsed = parseAddress(address.split("%", 1)[0]!.trim());
    if (!parsed) return false;
    if (parsed.family === 4) {
      const value = parsed.value;
      return this.v4.some((rule) => ((value & rule.mask) >>> 0) === rule.network);
    }
    const value = parsed.value;
    return this.v6.some((rule) => (value & rule.mask) === rule.network);
  }
}

/** The matcher for a key's stored entries, or null when the key accepts any address. */
export function compileAllowlist(entries: readonly string[]): AllowlistMatcher | null {
  return entries.length ? new AllowlistMatcher(entries) : null;
}

/** What a request refused by a key's allowlist is told: which address was refused, so its owner can add it. */
export function addressNotAllowedMessage(address: string | null | undefined): string {
  return address
    ? `The request's address (${address}) is not in this API key's IP allowlist`
    : "The request's address is unknown, and this API key accepts requests only from the addresses in its IP allowlist";
}
