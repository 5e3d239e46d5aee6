// A stored set's bytes taken apart and put together again, for tests that rewrite a set into
// another form: "magic" | u32 LE body length | the body in brotli, the body being u32 LE header
// length | header JSON | padding to 8 | the columns (lib/market/opportunities/encoding/set-bytes.ts).
import { brotliDecompressSync } from "node:zlib";
import { framedSet } from "@/lib/market/opportunities/encoding/set-bytes";

const align8 = (offset: number) => Math.ceil(offset / 8) * 8;

/** A stored set's body, decompressed. */
export function storedBody(stored: Uint8Array): Buffer {
  return brotliDecompressSync(stored.subarray(8));
}

/** The header of a stored set's body. */
export function storedHeader(stored: Uint8Array): Record<string, unknown> {
  const body = storedBody(stored);
  return JSON.parse(body.subarray(4, 4 + body.readUInt32LE(0)).toString("utf8")) as Record<string, unknown>;
}

/** The columns of a stored set's body, after its header and padding. */
export function storedColumns(stored: Uint8Array): Buffer {
  const body = storedBody(stored);
  return body.subarray(align8(4 + body.readUInt32LE(0)));
}

/** Stored bytes of `header` and `columns` (laid out as a body holds them), framed as sets are, with the magic of `like`. */
export function framedLike(like: Uint8Array, header: Record<string, unknown>, columns: Buffer): Promise<Uint8Array> {
  return framedSet([...like.subarray(0, 4)], header, [columns]);
}

/** The total size of `sections` laid out one after another, each padded to 8 bytes, as a body holds them. */
export function sectionBytes(sections: readonly ArrayBufferView[]): number {
  return sections.reduce((size, section) => align8(size + section.byteLength), 0);
}
