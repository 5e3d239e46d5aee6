// A stored set's bytes taken apart and put together again, for tests that rewrite a set into
// another form: "magic" | u32 LE body length | the body in brotli, the body being u32 LE header
// length | header JSON | padding to 8 | the columns (lib/market/opportunities/encoding/set-bytes.ts).
import { brotliCompressSync, brotliDecompressSync } from "node:zlib";

export const align8 = (offset: number) => Math.ceil(offset / 8) * 8;

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

/** Stored bytes of `header` and `columns`, with the magic of `like`. */
export function framedLike(like: Uint8Array, header: Record<string, unknown>, columns: Buffer): Uint8Array {
  const headerBytes = Buffer.from(JSON.stringify(header));
  const start = align8(4 + headerBytes.length);
  const body = Buffer.alloc(start + columns.length);
  body.writeUInt32LE(headerBytes.length, 0);
  headerBytes.copy(body, 4);
  columns.copy(body, start);
  const compressed = brotliCompressSync(body);
  const out = Buffer.alloc(8 + compressed.length);
  out.set(like.subarray(0, 4));
  out.writeUInt32LE(body.length, 4);
  compressed.copy(out, 8);
  return out;
}

/** The total size of `sections` laid out one after another, each padded to 8 bytes, as a body holds them. */
export function sectionBytes(sections: readonly ArrayBufferView[]): number {
  return sections.reduce((size, section) => align8(size + section.byteLength), 0);
}
