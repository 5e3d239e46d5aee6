import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { CachedBody, MIN_COMPRESSED_BYTES } from "./cached-body";

const big = `{"data":${JSON.stringify({ items: Array.from({ length: 40 }, (_, i) => ({ id: `C${i}`, apr: i })) })},"meta":{"timestamp":"`;

describe("CachedBody", () => {
  it("writes each response's middle between the kept parts", () => {
    const body = new CachedBody("<before|", "|after>");
    expect(body.identity(body.tail("one")).toString()).toBe("<before|one|after>");
    expect(body.identity(body.tail("two")).toString()).toBe("<before|two|after>");
  });

  it("tags the kept parts only: the same whatever the middle, different when they differ", () => {
    const body = new CachedBody("a", "b");
    expect(body.tag("identity")).toBe(new CachedBody("a", "b").tag("identity"));
    expect(body.tag("identity")).not.toBe(new CachedBody("a", "c").tag("identity"));
    expect(new Set([body.tag("identity"), body.tag("gzip"), body.tag("br")]).size).toBe(3);
  });

  it("compresses bodies of a kilobyte or more only", () => {
    const small = new CachedBody("x".repeat(MIN_COMPRESSED_BYTES - 10), "");
    expect(small.compressible(small.tail("123456789"))).toBe(false);
    expect(small.compressible(small.tail("1234567890"))).toBe(true);
  });

  it("compresses once, whoever asks, and decodes to exactly the uncompressed body", async () => {
    const body = new CachedBody(big, `,"mode":"live"}}`);
    const sizes: number[] = [];
    body.onResize = (bytes) => sizes.push(bytes);
    const before = body.bytes;
    expect(body.ready("gzip")).toBeUndefined();
    const [first, second] = await Promise.all([body.precompressed("gzip"), body.precompressed("gzip")]);
    expect(first).toBe(second);
    expect(body.ready("gzip")).toBe(first);
    await body.precompressed("br");
    expect(sizes).toHaveLength(2);
    expect(body.bytes).toBe(before + first.bytes + body.ready("br")!.bytes);
    for (const middle of ["2026-11-21T19:04:05.123Z", "2026-11-21T19:04:06.456Z"]) {
      const tail = body.tail(middle);
      const plain = body.identity(tail);
      expect(gunzipSync(body.ready("gzip")!.withTail(tail)).equals(plain)).toBe(true);
      expect(brotliDecompressSync(body.ready("br")!.withTail(tail)).equals(plain)).toBe(true);
    }
  });
});
