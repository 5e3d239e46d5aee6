import { precompressBrotli } from "./brotli-continuation";
import { contentHash, entityTag, type ContentCoding } from "./entity-tag";
import { precompressGzip } from "./gzip-continuation";
import type { PrecompressedPrefix } from "./precompressed-prefix";

/** Smaller bodies go uncompressed: under about a kilobyte, compressing saves less than it costs. */
export const MIN_COMPRESSED_BYTES = 1024;

/** Rough size of the object, its map and a string header, for the memory budget. */
const OVERHEAD_BYTES = 256;

type Compressed = Exclude<ContentCoding, "identity">;

const PRECOMPRESS: Record<Compressed, (prefix: Buffer) => Promise<PrecompressedPrefix>> = {
  gzip: (prefix) => precompressGzip(prefix),
  br: (prefix) => precompressBrotli(prefix),
};

/**
 * One answer as the cache keeps it: `before`, which holds nearly all of it, then a part that each
 * response writes itself (`middle`: in the envelope, meta's timestamp and request id), then
 * `after`. The entity tag is the hash of `before` (or of `tagSource`, which stands for it without
 * what moves with the clock alone) and `after` only, so it changes when what the answer says
 * changes and never because of `middle`. Each compressed coding is made once, when a
 * response first asks for it; responses then only append their own ending to it.
 */
export class CachedBody {
  readonly hash: string;
  private readonly head: Buffer;
  private readonly compressed = new Map<Compressed, PrecompressedPrefix>();
  private readonly compressing = new Map<Compressed, Promise<PrecompressedPrefix>>();
  /** Told the new size when a compressed coding is added (the cache's memory budget). */
  onResize: ((bytes: number) => void) | undefined;

  constructor(
    before: string,
    private readonly after: string,
    /** Epoch ms after which the answer must be rebuilt even if nothing was published. */
    readonly validUntil: number = Number.POSITIVE_INFINITY,
    tagSource?: string,
  ) {
    this.head = Buffer.from(before);
    this.hash = contentHash(tagSource ?? this.head, after);
  }

  /** Bytes held, counted generously: strings at two bytes a character. */
  get bytes(): number {
    let bytes = OVERHEAD_BYTES + this.head.length + 2 * (this.after.length + this.hash.length);
    for (const prefix of this.compressed.values()) bytes += prefix.bytes;
    return bytes;
  }

  /** The entity tag of this content as sent with `coding`. */
  tag(coding: ContentCoding): string {
    return entityTag(this.hash, coding);
  }

  /** The uncompressed bytes after `before`, for one response. */
  tail(middle: string): Buffer {
    return Buffer.from(middle + this.after);
  }

  /** Whether a response with this tail is big enough to compress (MIN_COMPRESSED_BYTES). */
  compressible(tail: Buffer): boolean {
    return this.head.length + tail.length >= MIN_COMPRESSED_BYTES;
  }

  /** The whole body, uncompressed. */
  identity(tail: Buffer): Buffer {
    return Buffer.concat([this.head, tail], this.head.length + tail.length);
  }

  /** The compressed beginning for `coding` when it is made already, so the hot path need not wait. */
  ready(coding: Compressed): PrecompressedPrefix | undefined {
    return this.compressed.get(coding);
  }

  /** The compressed beginning for `coding`, compressing it (once, whoever asks meanwhile) if needed. */
  precompressed(coding: Compressed): Promise<PrecompressedPrefix> {
    const done = this.compressed.get(coding);
    if (done) return Promise.resolve(done);
    let pending = this.compressing.get(coding);
    if (!pending) {
      pending = PRECOMPRESS[coding](this.head).then((prefix) => {
        this.compressed.set(coding, prefix);
        this.compressing.delete(coding);
        this.onResize?.(this.bytes);
        return prefix;
      });
      pending.catch(() => this.compressing.delete(coding));
      this.compressing.set(coding, pending);
    }
    return pending;
  }
}
