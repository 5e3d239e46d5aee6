import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import type { PrecompressedPrefix } from "./precompressed-prefix";

const brotliCompressAsync = promisify(brotliCompress);

/** The longest uncompressed meta-block with a four-nibble length (RFC 7932 §9.2: MLEN - 1 in 16 bits). */
const MAX_CHUNK = 0x10000;
/** ISLAST = 1 and ISLASTEMPTY = 1, then padding: the empty last meta-block that ends a stream. */
const STREAM_END = Buffer.from([0x03]);

/**
 * A brotli body whose first part is compressed once and whose last few bytes differ per response.
 * The prefix is compressed with BROTLI_OPERATION_FLUSH, which leaves the stream open on a byte
 * boundary; each response then appends its tail as uncompressed meta-blocks (RFC 7932 §9.2: ISLAST
 * 0, MNIBBLES 4, MLEN - 1, ISUNCOMPRESSED 1, padding, then the bytes as they are) and the empty last
 * meta-block. Brotli streams cannot be concatenated, so this is the only way to reuse the prefix.
 */
class BrotliContinuation implements PrecompressedPrefix {
  constructor(private readonly head: Buffer) {}

  get bytes(): number {
    return this.head.length;
  }

  withTail(tail: Buffer): Buffer {
    const chunks = Math.ceil(tail.length / MAX_CHUNK);
    const out = Buffer.allocUnsafe(this.head.length + chunks * 3 + tail.length + STREAM_END.length);
    this.head.copy(out, 0);
    let at = this.head.length;
    for (let chunk = 0; chunk < chunks; chunk++) {
      const bytes = tail.subarray(chunk * MAX_CHUNK, (chunk + 1) * MAX_CHUNK);
      // Bit 0 ISLAST = 0, bits 1-2 MNIBBLES = 00 (four nibbles), bits 3-18 MLEN - 1, bit 19
      // ISUNCOMPRESSED = 1, bits 20-23 padding to the byte boundary; least significant bit first.
      const header = ((bytes.length - 1) << 3) | (1 << 19);
      out[at] = header & 0xff;
      out[at + 1] = (header >>> 8) & 0xff;
      out[at + 2] = (header >>> 16) & 0xff;
      bytes.copy(out, at + 3);
      at += 3 + bytes.length;
    }
    STREAM_END.copy(out, at);
    return out;
  }
}

/** Compresses `prefix` once (off the event loop) for bodies that continue it as brotli. */
export async function precompressBrotli(prefix: Buffer, quality = 5): Promise<PrecompressedPrefix> {
  const head = await brotliCompressAsync(prefix, {
    finishFlush: constants.BROTLI_OPERATION_FLUSH,
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: prefix.length,
    },
  });
  return new BrotliContinuation(head);
}
