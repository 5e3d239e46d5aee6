import { brotliDecompressSync, gunzipSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { precompressBrotli } from "./brotli-continuation";
import { precompressGzip } from "./gzip-continuation";
import type { PrecompressedPrefix } from "./precompressed-prefix";

const codings: [string, (prefix: Buffer) => Promise<PrecompressedPrefix>, (body: Buffer) => Buffer][] = [
  ["gzip", (prefix) => precompressGzip(prefix), gunzipSync],
  ["br", (prefix) => precompressBrotli(prefix), brotliDecompressSync],
];

describe.each(codings)("a %s prefix continued per response", (_, precompress, decompress) => {
  it("decodes to exactly the prefix followed by each response's tail", async () => {
    const prefix = Buffer.from(`{"data":{"items":[${Array.from({ length: 200 }, (_, i) => `{"id":"COIN${i}-binance-okx","apr":${i / 7}}`).join(",")}]},"meta":{"timestamp":"`);
    const compressed = await precompress(prefix);
    expect(compressed.bytes).toBeLessThan(prefix.length / 3);
    for (const middle of ["2026-11-21T19:04:05.123Z", "2027-01-01T00:00:00.000Z"]) {
      const tail = Buffer.from(`${middle}","request_id":"req_8ZkT2mQw9XyLp4Rb7Hc1NvDs","mode":"live"}}`);
      expect(decompress(compressed.withTail(tail)).equals(Buffer.concat([prefix, tail]))).toBe(true);
    }
  });

  it("handles empty parts and tails longer than one stored block", async () => {
    const empty = await precompress(Buffer.alloc(0));
    expect(decompress(empty.withTail(Buffer.from("tail"))).toString()).toBe("tail");
    const some = await precompress(Buffer.from("prefix"));
    expect(decompress(some.withTail(Buffer.alloc(0))).toString()).toBe("prefix");
    const long = Buffer.alloc(200_000, "ab");
    expect(decompress(some.withTail(long)).equals(Buffer.concat([Buffer.from("prefix"), long]))).toBe(true);
  });

  it("round-trips any prefix and tail", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 300 }), async (prefix, tail) => {
        const compressed = await precompress(Buffer.from(prefix));
        const body = decompress(compressed.withTail(Buffer.from(tail)));
        expect(body.equals(Buffer.concat([prefix, tail]))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });
});
