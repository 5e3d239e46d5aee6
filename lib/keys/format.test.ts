import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BASE62_ALPHABET } from "@/lib/keys/base62";
import {
  CHECKSUM_LENGTH,
  checksumFor,
  displayPrefix,
  KEY_LENGTH,
  parseApiKey,
  RANDOM_LENGTH,
  SECRET_LENGTH,
} from "@/lib/keys/format";
import { generateApiKey } from "@/lib/keys/generate";
import { KEY_MODES, KEY_PREFIXES, keyModeFromDb, keyModeToDb } from "@/lib/keys/mode";

// A fixed, hand-checkable key: checksum is base62(crc32("svc_sk_live_" + 32 × "a")).
const RANDOM = "a".repeat(RANDOM_LENGTH);
const LIVE_KEY = `svc_sk_live_${RANDOM}${checksumFor("live", RANDOM)}`;

const keyArbitrary = fc
  .tuple(fc.constantFrom(...KEY_MODES), fc.string({ unit: fc.constantFrom(...BASE62_ALPHABET), minLength: 32, maxLength: 32 }))
  .map(([mode, random]) => `${KEY_PREFIXES[mode]}${random}${checksumFor(mode, random)}`);

describe("key format", () => {
  it("has the documented lengths", () => {
    expect(RANDOM_LENGTH).toBe(32);
    expect(CHECKSUM_LENGTH).toBe(6);
    expect(SECRET_LENGTH).toBe(38);
    expect(KEY_LENGTH).toBe(50);
    expect(KEY_PREFIXES).toEqual({ live: "svc_sk_live_", test: "svc_sk_test_" });
  });

  it.each(KEY_MODES)("generates %s keys of prefix + 38 base62 characters", (mode) => {
    for (let i = 0; i < 50; i++) {
      const { key } = generateApiKey(mode);
      expect(key).toHaveLength(50);
      expect(key.startsWith(KEY_PREFIXES[mode])).toBe(true);
      expect(key.slice(KEY_PREFIXES[mode].length)).toMatch(/^[0-9A-Za-z]{38}$/);
      expect(parseApiKey(key)).toEqual({ ok: true, mode, key });
    }
  });

  it("computes the checksum as fixed-width base62 of the CRC32 of mode prefix + random part", () => {
    expect(checksumFor("live", RANDOM)).toMatch(/^[0-9A-Za-z]{6}$/);
    // crc32("svc_sk_live_" + "a"×32) and crc32("svc_sk_test_" + "a"×32), computed independently with zlib.
    expect(checksumFor("live", RANDOM)).toBe("1AO6lf");
    expect(checksumFor("test", RANDOM)).toBe("2d3Hle");
  });

  it("round-trips: every checksum it computes, it accepts", () => {
    fc.assert(
      fc.property(keyArbitrary, (key) => {
        const parsed = parseApiKey(key);
        return parsed.ok && parsed.key === key && key.startsWith(KEY_PREFIXES[parsed.mode]);
      }),
      { numRuns: 2000 },
    );
  });

  it("detects any single-character change in the secret or checksum", () => {
    const secretPosition = fc.integer({ min: KEY_LENGTH - SECRET_LENGTH, max: KEY_LENGTH - 1 });
    fc.assert(
      fc.property(keyArbitrary, secretPosition, fc.constantFrom(...BASE62_ALPHABET), (key, index, replacement) => {
        fc.pre(key[index] !== replacement);
        const changed = key.slice(0, index) + replacement + key.slice(index + 1);
        expect(parseApiKey(changed)).toEqual({ ok: false, reason: "bad_checksum" });
      }),
      { numRuns: 5000 },
    );
  });

  it("rejects any single-character change in the mode prefix", () => {
    fc.assert(
      fc.property(
        keyArbitrary,
        fc.integer({ min: 0, max: KEY_LENGTH - SECRET_LENGTH - 1 }),
        fc.constantFrom(...BASE62_ALPHABET, "_", "-", " "),
        (key, index, replacement) => {
          fc.pre(key[index] !== replacement);
          const changed = key.slice(0, index) + replacement + key.slice(index + 1);
          expect(parseApiKey(changed).ok).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("turning a live key into a test key fails the checksum", () => {
    const asTest = LIVE_KEY.replace("svc_sk_live_", "svc_sk_test_");
    expect(parseApiKey(asTest)).toEqual({ ok: false, reason: "bad_checksum" });
  });

  it.each([
    ["empty string", ""],
    ["prefix only", "svc_sk_live_"],
    ["unknown mode", LIVE_KEY.replace("live", "prod")],
    ["uppercase prefix", LIVE_KEY.replace("svc_sk_live_", "SVC_SK_LIVE_")],
    ["one character short", LIVE_KEY.slice(0, -1)],
    ["one character long", `${LIVE_KEY}a`],
    ["trailing space", `${LIVE_KEY} `],
    ["leading space", ` ${LIVE_KEY}`],
    ["trailing newline", `${LIVE_KEY}\n`],
    ["non-base62 character of the right length", `${LIVE_KEY.slice(0, 20)}-${LIVE_KEY.slice(21)}`],
    ["non-ASCII letter", `${LIVE_KEY.slice(0, 20)}é${LIVE_KEY.slice(21)}`],
    ["key inside other text", `x${LIVE_KEY.slice(1)}`],
    ["very long input", "a".repeat(100_000)],
  ])("treats %s as malformed", (_label, raw) => {
    expect(parseApiKey(raw)).toEqual({ ok: false, reason: "malformed" });
  });

  it("never echoes the input in a failure", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (raw) => {
        const parsed = parseApiKey(raw);
        if (!parsed.ok) expect(Object.keys(parsed).sort()).toEqual(["ok", "reason"]);
      }),
    );
    const bad = parseApiKey(LIVE_KEY.slice(0, -1) + (LIVE_KEY.endsWith("0") ? "1" : "0"));
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).not.toContain(RANDOM.slice(0, 9));
  });
});

describe("displayPrefix", () => {
  it("is the mode prefix, the first 8 secret characters and an ellipsis", () => {
    const key = `svc_sk_live_Ab3dE9xQ${"z".repeat(24)}`;
    const valid = key + checksumFor("live", key.slice(12));
    expect(displayPrefix(valid)).toBe("svc_sk_live_Ab3dE9xQ…");
    expect(displayPrefix(valid).endsWith("\u2026")).toBe(true);
  });

  it.each(KEY_MODES)("carries only 8 secret characters for %s keys", (mode) => {
    const { key, prefix } = generateApiKey(mode);
    const secret = key.slice(KEY_PREFIXES[mode].length);
    expect(prefix).toBe(`${KEY_PREFIXES[mode]}${secret.slice(0, 8)}…`);
    expect(prefix).toHaveLength(KEY_PREFIXES[mode].length + 8 + 1);
    expect(prefix).not.toContain(secret.slice(0, 9));
  });

  it.each([
    ["text before the key", (key: string) => `junk ${key}`],
    ["text after the key", (key: string) => `${key} junk`],
    ["a truncated key", (key: string) => key.slice(0, -1)],
  ])("refuses %s", (_label, mangle) => {
    expect(() => displayPrefix(mangle(LIVE_KEY))).toThrow(TypeError);
  });

  it("refuses a string that is not shaped like a key, without echoing it", () => {
    const notAKey = "svc_sk_live_short-secret-value";
    expect(() => displayPrefix(notAKey)).toThrow(TypeError);
    try {
      displayPrefix(notAKey);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain("short-secret");
    }
  });
});

describe("key mode database mapping", () => {
  it("maps both ways", () => {
    expect(keyModeToDb("live")).toBe("LIVE");
    expect(keyModeToDb("test")).toBe("TEST");
    expect(keyModeFromDb("LIVE")).toBe("live");
    expect(keyModeFromDb("TEST")).toBe("test");
  });
});
