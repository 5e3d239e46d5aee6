import * as zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "@/lib/keys/crc32";

const ascii = (s: string) => new TextEncoder().encode(s);

describe("crc32", () => {
  it("matches the published IEEE check values", () => {
    expect(crc32(ascii("123456789"))).toBe(0xcbf43926);
    expect(crc32(ascii(""))).toBe(0);
    expect(crc32(ascii("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
  });

  it("returns an unsigned 32-bit integer", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const value = crc32(bytes);
        return Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
      }),
    );
  });

  // node:zlib has crc32 from Node 20.15; where it exists it is an independent reference.
  const reference = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
  it.skipIf(typeof reference !== "function")("agrees with node:zlib crc32", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 128 }), (bytes) => crc32(bytes) === reference!(bytes)),
      { numRuns: 1000 },
    );
  });
});
