/**
 * The compressed form of a body's fixed beginning, made once, to which each response appends its
 * own ending (the envelope's `meta`) without compressing the beginning again.
 */
export interface PrecompressedPrefix {
  /** Size of the compressed beginning, for the cache's memory budget. */
  readonly bytes: number;
  /** The whole encoded body: the compressed beginning, then `tail`, then the end of the stream. */
  withTail(tail: Buffer): Buffer;
}
