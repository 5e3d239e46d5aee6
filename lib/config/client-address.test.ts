import { describe, expect, it } from "vitest";
import { clientAddress, normalizeAddress, parseTrustedProxies } from "./client-address";

const proxies = parseTrustedProxies("10.0.0.0/8, 192.0.2.7 ,fd00::/8,::1");
const none = parseTrustedProxies(undefined);

describe("parseTrustedProxies", () => {
  it("reads addresses and CIDR ranges of both families", () => {
    expect(proxies.any).toBe(true);
    expect(proxies.has("10.200.3.4")).toBe(true);
    expect(proxies.has("192.0.2.7")).toBe(true);
    expect(proxies.has("192.0.2.8")).toBe(false);
    expect(proxies.has("fd12:3456::1")).toBe(true);
    expect(proxies.has("::1")).toBe(true);
    expect(proxies.has("::ffff:10.1.1.1")).toBe(true);
    expect(proxies.has("2001:db8::1")).toBe(false);
    expect(proxies.has("not an address")).toBe(false);
  });

  it("trusts nobody when unset or empty", () => {
    for (const value of [undefined, "", " , "]) {
      const parsed = parseTrustedProxies(value);
      expect(parsed.any).toBe(false);
      expect(parsed.has("127.0.0.1")).toBe(false);
    }
  });

  it.each(["10.0.0.0/33", "10.0.0.0/", "10.0.0/8", "fd00::/129", "localhost", "10.0.0.0/8/1", "10.0.0.0/-1", "10.0.0.0/8a", "*"])(
    "refuses %j, naming it",
    (value) => {
      expect(() => parseTrustedProxies(value)).toThrow(`"${value}"`);
    },
  );
});

describe("normalizeAddress", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    [" 192.0.2.1 ", "192.0.2.1"],
    ["192.0.2.1:4711", "192.0.2.1"],
    ["[2001:db8::1]:4711", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["2001:db8::1", "2001:db8::1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["unknown", null],
    ["", null],
    [undefined, null],
    ["192.0.2.1, 10.0.0.1", null],
  ])("%j is %j", (input, expected) => {
    expect(normalizeAddress(input)).toBe(expected);
  });
});

describe("clientAddress", () => {
  it("ignores X-Forwarded-For from a peer that is not a trusted proxy", () => {
    expect(clientAddress("203.0.113.5", "198.51.100.1", proxies)).toBe("203.0.113.5");
    expect(clientAddress("::ffff:203.0.113.5", "198.51.100.1", proxies)).toBe("203.0.113.5");
  });

  it("ignores X-Forwarded-For entirely when no proxy is configured", () => {
    expect(clientAddress("10.0.0.1", "198.51.100.1", none)).toBe("10.0.0.1");
    expect(clientAddress("127.0.0.1", "198.51.100.1", parseTrustedProxies(""))).toBe("127.0.0.1");
  });

  it("takes the right-most untrusted hop behind trusted proxies", () => {
    expect(clientAddress("10.0.0.1", "198.51.100.1", proxies)).toBe("198.51.100.1");
    expect(clientAddress("10.0.0.1", "198.51.100.1, 10.0.0.2", proxies)).toBe("198.51.100.1");
    expect(clientAddress("::1", "198.51.100.1,192.0.2.7,10.9.9.9", proxies)).toBe("198.51.100.1");
  });

  it("never believes what the client wrote to the left of its own hop", () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the address it saw.
    expect(clientAddress("10.0.0.1", "1.2.3.4, 198.51.100.1", proxies)).toBe("198.51.100.1");
    expect(clientAddress("10.0.0.1", ["1.2.3.4", "198.51.100.1"], proxies)).toBe("198.51.100.1");
    // Pretending to be behind the proxy does not help either: the proxy's own hop is read first.
    expect(clientAddress("10.0.0.1", "10.0.0.5, 198.51.100.1", proxies)).toBe("198.51.100.1");
  });

  it("stops at a malformed hop, keeping the last trusted address", () => {
    expect(clientAddress("10.0.0.1", "198.51.100.1, garbage", proxies)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "198.51.100.1, 10.0.0.2, garbage", proxies)).toBe("10.0.0.1");
  });

  it("reads ports and brackets some proxies write", () => {
    expect(clientAddress("10.0.0.1", "198.51.100.1:51234", proxies)).toBe("198.51.100.1");
    expect(clientAddress("10.0.0.1", "[2001:db8::7]:443", proxies)).toBe("2001:db8::7");
  });

  it("falls back to the proxy when the header is missing, and to the furthest hop when every hop is trusted", () => {
    expect(clientAddress("10.0.0.1", undefined, proxies)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "", proxies)).toBe("10.0.0.1");
    expect(clientAddress("10.0.0.1", "10.0.0.3, 10.0.0.2", proxies)).toBe("10.0.0.3");
  });

  it("answers an empty string when the socket has no address", () => {
    expect(clientAddress(undefined, "198.51.100.1", proxies)).toBe("");
  });
});
