import { BlockList } from "node:net";
import { describe, expect, it } from "vitest";
import {
  addressNotAllowedMessage,
  compileAllowlist,
  MAX_ALLOWLIST_ENTRIES,
  parseAllowlist,
  parseAllowlistEntry,
  splitAllowlistText,
} from "./ip-allowlist";

const canonical = (entry: string) => {
  const parsed = parseAllowlistEntry(entry);
  return parsed.ok ? parsed.canonical : `invalid: ${parsed.problem}`;
};
const allows = (entries: string[], address: string | undefined) => compileAllowlist(entries)!.allows(address);

/** Each address against the list: let in (true) or refused (false), named when it fails. */
function verdicts(entries: string[], expected: Record<string, boolean>) {
  for (const [address, allowed] of Object.entries(expected)) expect(allows(entries, address), address).toBe(allowed);
}

describe("parseAllowlistEntry", () => {
  it.each([
    ["10.0.0.0/8", "10.0.0.0/8"],
    [" 192.0.2.7 ", "192.0.2.7"],
    ["192.0.2.7/32", "192.0.2.7"],
    ["0.0.0.0/0", "0.0.0.0/0"],
    ["255.255.255.255", "255.255.255.255"],
    ["2001:DB8::/32", "2001:db8::/32"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["2001:db8::1/128", "2001:db8::1"],
    ["::/0", "::/0"],
    ["::", "::"],
    ["::1", "::1"],
    ["fe80::/10", "fe80::/10"],
    ["2001:db8:0:1:0:0:0:1", "2001:db8:0:1::1"], // the longer run of zeros is the one compressed
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"], // on a tie, the first
    ["2001:db8:1:1:1:1:0:1", "2001:db8:1:1:1:1:0:1"], // a single zero group is not compressed
    ["::ffff:192.0.2.7", "192.0.2.7"],
    ["::ffff:c000:0207", "192.0.2.7"],
    ["::ffff:10.0.0.0/104", "10.0.0.0/8"],
    ["::ffff:0:0/96", "0.0.0.0/0"],
    ["64:ff9b::192.0.2.7", "64:ff9b::c000:207"],
  ])("reads %s as %s", (entry, expected) => {
    expect(canonical(entry)).toBe(expected);
  });

  it.each([
    ["", "is not an IPv4 or IPv6 address"],
    ["example.com", "is not an IPv4 or IPv6 address"],
    ["10.0.0", "is not an IPv4 or IPv6 address"],
    ["10.0.0.256", "is not an IPv4 or IPv6 address"],
    ["010.0.0.1", "is not an IPv4 or IPv6 address"],
    ["10.0.0.0/8/8", "is not an IPv4 or IPv6 address"],
    ["1:2:3:4:5:6:7", "is not an IPv4 or IPv6 address"],
    ["1:2:3:4:5:6:7:8:9", "is not an IPv4 or IPv6 address"],
    ["1:2:3:4::5:6:7:8", "is not an IPv4 or IPv6 address"],
    ["1::2::3", "is not an IPv4 or IPv6 address"],
    ["12345::", "is not an IPv4 or IPv6 address"],
    ["fe80::1%eth0", "is not an IPv4 or IPv6 address"],
    ["1.2.3.4::", "is not an IPv4 or IPv6 address"],
    ["[2001:db8::1]", "is not an IPv4 or IPv6 address"],
    ["10.0.0.0/33", "the prefix length of an IPv4 range is 0 to 32"],
    ["10.0.0.0/", "the prefix length of an IPv4 range is 0 to 32"],
    ["10.0.0.0/08", "the prefix length of an IPv4 range is 0 to 32"],
    ["2001:db8::/129", "the prefix length of an IPv6 range is 0 to 128"],
    ["::ffff:10.0.0.0/95", "an IPv4-mapped range (::ffff:…) needs a prefix of at least /96"],
  ])("refuses %j", (entry, problem) => {
    const parsed = parseAllowlistEntry(entry);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toContain(`"${entry.trim()}"`);
      expect(parsed.problem).toContain(problem);
    }
  });

  it("refuses a range with bits set after its prefix, naming both readings", () => {
    expect(parseAllowlistEntry("10.0.0.1/8")).toEqual({
      ok: false,
      problem: '"10.0.0.1/8" has bits set after its /8 prefix: write 10.0.0.0/8 for the range, or 10.0.0.1 for the one address',
    });
    expect(canonical("2001:db8::1/64")).toContain("write 2001:db8::/64 for the range, or 2001:db8::1 for the one address");
    expect(canonical("0.0.0.1/0")).toContain("write 0.0.0.0/0 for the range");
  });

  it("shortens an over-long entry in its message", () => {
    const parsed = parseAllowlistEntry("1".repeat(500));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem.length).toBeLessThan(120);
  });
});

describe("parseAllowlist", () => {
  it("skips blanks, writes every entry canonically and keeps duplicates once", () => {
    expect(parseAllowlist(["10.0.0.0/8", " ", "192.0.2.7/32", "192.0.2.7", "2001:DB8::/32"])).toEqual({
      ok: true,
      entries: ["10.0.0.0/8", "192.0.2.7", "2001:db8::/32"],
    });
    expect(parseAllowlist([])).toEqual({ ok: true, entries: [] });
  });

  it("refuses the whole list when any entry is invalid, naming each invalid one", () => {
    const result = parseAllowlist(["10.0.0.0/8", "nonsense", "10.0.0.1/8"]);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problem).toContain('"nonsense" is not an IPv4 or IPv6 address or CIDR range');
      expect(result.problem).toContain('"10.0.0.1/8" has bits set');
      expect(result.problem).not.toContain('"10.0.0.0/8"');
    }
  });

  it(`holds at most ${MAX_ALLOWLIST_ENTRIES} entries`, () => {
    const addresses = (n: number) => Array.from({ length: n }, (_, i) => `192.0.2.${i}`);
    expect(parseAllowlist(addresses(MAX_ALLOWLIST_ENTRIES)).ok).toBe(true);
    expect(parseAllowlist(addresses(MAX_ALLOWLIST_ENTRIES + 1))).toEqual({
      ok: false,
      problem: `An allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries; this one has ${MAX_ALLOWLIST_ENTRIES + 1}. Use CIDR ranges to cover several addresses.`,
    });
  });
});

describe("splitAllowlistText", () => {
  it("splits on commas, spaces and line breaks", () => {
    expect(splitAllowlistText("10.0.0.0/8, 192.0.2.7\n2001:db8::/32\r\n\n ,, fd00::1\t")).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "2001:db8::/32",
      "fd00::1",
    ]);
    expect(splitAllowlistText("  \n ")).toEqual([]);
  });
});

describe("AllowlistMatcher", () => {
  it("accepts any address when the list is empty", () => {
    expect(compileAllowlist([])).toBeNull();
  });

  it("matches IPv4 ranges at their edges", () => {
    verdicts(["10.0.0.0/8", "192.0.2.7"], { "10.0.0.0": true, "10.255.255.255": true, "9.255.255.255": false, "11.0.0.0": false, "192.0.2.7": true, "192.0.2.8": false });
    verdicts(["0.0.0.0/0"], { "255.255.255.255": true, "::1": false });
    verdicts(["255.255.255.255"], { "255.255.255.255": true });
    verdicts(["128.0.0.0/1"], { "127.255.255.255": false, "200.1.2.3": true });
  });

  it("matches IPv6 ranges at their edges", () => {
    verdicts(["2001:db8::/32", "fd00::1"], {
      "2001:db8::": true,
      "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff": true,
      "2001:db9::": false,
      "2001:DB8:0:0::42": true,
      "fd00::1": true,
      "fd00::2": false,
    });
    verdicts(["::/0"], { "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff": true, "192.0.2.1": false });
    verdicts(["::1"], { "::1": true, "127.0.0.1": false });
    verdicts(["fe80::/10"], { "fe80::1%eth0": true });
  });

  it("treats an IPv4-mapped IPv6 address as the IPv4 address it carries", () => {
    verdicts(["10.0.0.0/8"], { "::ffff:10.1.2.3": true, "::FFFF:10.1.2.3": true, "::ffff:a01:203": true, "::ffff:11.1.2.3": false });
    verdicts(["::ffff:10.0.0.0/104"], { "10.9.9.9": true });
  });

  it("refuses an unknown or unreadable address", () => {
    for (const address of [undefined, "", "unknown", "10.0.0.1:4711", "10.0.0"]) expect(allows(["0.0.0.0/0", "::/0"], address), address).toBe(false);
  });

  it("leaves out a stored entry it cannot read, so the list only narrows", () => {
    const matcher = compileAllowlist(["not an address"])!;
    expect(matcher.allows("10.0.0.1")).toBe(false);
    expect(matcher.entries).toEqual(["not an address"]);
  });

  it("agrees with node:net's BlockList on random addresses and ranges", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const v4 = () => Array.from({ length: 4 }, () => Math.floor(random() * 256)).join(".");
    const v6 = () => Array.from({ length: 8 }, () => Math.floor(random() * 65536).toString(16)).join(":");
    for (let round = 0; round < 200; round++) {
      const family = random() < 0.5 ? 4 : 6;
      const bits = family === 4 ? 32 : 128;
      const prefix = Math.floor(random() * (bits + 1));
      const base = family === 4 ? v4() : v6();
      const blockList = new BlockList();
      blockList.addSubnet(base, prefix, family === 4 ? "ipv4" : "ipv6");
      // The network of `base`, as BlockList reads it, in canonical form.
      const range = parseAllowlistEntry(`${base}/${prefix}`);
      const entry = range.ok ? range.canonical : range.problem.match(/write (\S+) for the range/)![1]!;
      const matcher = compileAllowlist([entry])!;
      for (let probe = 0; probe < 20; probe++) {
        const address = probe === 0 ? base : family === 4 ? v4() : v6();
        expect(matcher.allows(address), `${address} in ${entry}`).toBe(blockList.check(address, family === 4 ? "ipv4" : "ipv6"));
      }
    }
  });
});

describe("addressNotAllowedMessage", () => {
  it("names the refused address, or says it is unknown", () => {
    expect(addressNotAllowedMessage("203.0.113.9")).toBe("The request's address (203.0.113.9) is not in this API key's IP allowlist");
    expect(addressNotAllowedMessage(undefined)).toContain("address is unknown");
  });
});
