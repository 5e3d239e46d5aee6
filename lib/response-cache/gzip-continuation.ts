import { promisify } from "node:util";
import { constants, crc32, deflateRaw } from "node:zlib";
import type { PrecompressedPrefix } from "./precompressed-prefix";

const deflateRawAsync = promisify(deflateRaw);

/** ID1 ID2, CM 8 (deflate), no flags, no modification time, XFL 0, OS 255 (unknown): RFC 1952 §2.3. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);
/** The longest stored deflate block (RFC 1951 §3.2.4: LEN is 16 bits). */
const MAX_STORED = 0xffff;

/**
 * A gzip body whose first part is compressed once and whose last few bytes differ per response.
 * The prefix is deflated with a sync flush, which ends it on a byte boundary without closing the
 * stream; each response then appends its tail as stored (uncompressed) deflate blocks, the last one
 * final, and the gzip trailer: CRC-32 of the whole uncompressed body, continued from the prefix's
 * CRC, and its length. The result is one ordinary gzip member, so every decoder reads it (unlike
 * concatenated members, which some clients stop after the first of).
 */
class GzipContinuation implements PrecompressedPrefix {
  constructor(
    private readonly head: Buffer,
    private readonly prefixCrc: number,
    private readonly prefixLength: number,
  ) {}

  get bytes(): number {
    return this.head.length;
  }

  withTail(tail: Buffer): Buffer {
    const blocks = Math.max(1, Math.ceil(tail.length / MAX_STORED));
    const out = Buffer.allocUnsafe(this.head.length + blocks * 5 + tail.length + 8);
    this.head.copy(out, 0);
    let at = this.head.length;
    for (let block = 0; block < blocks; block++) {
      const chunk = tail.subarray(block * MAX_STORED, (block + 1) * MAX_STORED);
      // BFINAL on the last block, BTYPE 00 (stored), the rest of the byte padding; then LEN, NLEN.
      out[at] = block === blocks - 1 ? 0x01 : 0x00;
      out.writeUInt16LE(chunk.length, at + 1);
      out.writeUInt16LE(~chunk.length & 0xffff, at + 3);
      chunk.copy(out, at + 5);
      at += 5 + chunk.length;
    }
    // Node's crc32 answers 0 for some empty views instead of the value it was given to continue.
    out.writeUInt32LE(tail.length === 0 ? this.prefixCrc : crc32(tail, this.prefixCrc), at);
    out.writeUInt32LE((this.prefixLength + tail.length) >>> 0, at + 4);
    return out;
  }
}

/** Compresses `prefix` once (off the event loop) for bodies that continue it as gzip. */
export async function precompressGzip(prefix: Buffer, level = 6): Promise<PrecompressedPrefix> {
  const deflated = await deflateRawAsync(prefix, { level, finishFlush: constants.Z_SYNC_FLUSH });
  return new GzipContinuation(Buffer.concat([GZIP_HEADER, deflated]), crc32(prefix), prefix.length);
}
