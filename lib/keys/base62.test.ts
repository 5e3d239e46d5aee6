import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASE62_ALPHABET, encodeBase62Fixed, randomBase62, type RandomSource } from "@/lib/keys/base62";

function decodeBase62(text: string): number {
  let value = 0;
  for (const char of text) value = value * 62 + BASE62_ALPHABET.indexOf(char);
  return value;
}

describe("base62 alphabet", () => {
  it("is 0-9A-Za-z, 62 distinct characters", () => {
    expect(BASE62_ALPHABET).toBe("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
    expect(new Set(BASE62_ALPHABET).size).toBe(62);
  });
});

describe("encodeBase62Fixed", () => {
  it("left-pads to the width", () => {
    expect(encodeBase62Fixed(0, 6)).toBe("000000");
    expect(encodeBase62Fixed(61, 6)).toBe("00000z");
    expect(encodeBase62Fixed(62, 6)).toBe("000010");
    expect(encodeBase62Fixed(0xffffffff, 6)).toBe("4gfFC3");
  });

  it("round-trips every 32-bit value at width 6", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (n) => {
        const text = encodeBase62Fixed(n, 6);
        return text.length === 6 && /^[0-9A-Za-z]{6}$/.test(text) && decodeBase62(text) === n;
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses values that do not fit or are not integers", () => {
    expect(() => encodeBase62Fixed(62 ** 6, 6)).toThrow(RangeError);
    expect(() => encodeBase62Fixed(-1, 6)).toThrow(RangeError);
    expect(() => encodeBase62Fixed(1.5, 6)).toThrow(RangeError);
  });
});

describe("randomBase62", () => {
  it("returns exactly the requested number of alphabet characters", () => {
    for (const length of [0, 1, 32, 100]) {
      const text = randomBase62(length);
      expect(text).toHaveLength(length);
      expect(text).toMatch(/^[0-9A-Za-z]*$/);
    }
  });

  it("maps every byte value without bias: bytes >= 248 are rejected", () => {
    // Each of the 256 byte values once: an unbiased mapping yields every character exactly four
    // times; plain `byte % 62` would give the first eight characters a fifth hit.
    let served = false;
    const everyByteOnce: RandomSource = (size) => {
      if (served) throw new Error(`asked for ${size} more bytes than the test supplies`);
      served = true;
      return Uint8Array.from({ length: 256 }, (_, i) => i);
    };
    const text = randomBase62(248, everyByteOnce);
    const counts = new Map<string, number>();
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    expect([...counts.values()].every((count) => count === 4)).toBe(true);
  });

  it("keeps drawing when a batch is mostly rejected", () => {
    let calls = 0;
    const mostlyRejected: RandomSource = (size) => {
      calls++;
      const bytes = new Uint8Array(size).fill(255);
      bytes[0] = 10;
      return bytes;
    };
    expect(randomBase62(5, mostlyRejected)).toBe("AAAAA");
    expect(calls).toBe(5);
  });

  it("is roughly uniform over the alphabet (chi-squared sanity check)", () => {
    const text = randomBase62(62 * 1000);
    const counts = new Map<string, number>();
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = text.length / 62;
    let chiSquared = 0;
    for (const count of counts.values()) chiSquared += (count - expected) ** 2 / expected;
    // 61 degrees of freedom: mean 61; 130 is beyond the 99.999th percentile.
    expect(chiSquared).toBeLessThan(130);
  });
});
