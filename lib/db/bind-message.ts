/**
 * PostgreSQL's Bind message (the extended protocol's parameter values) as the pieces to write:
 * each large binary value is a piece of its own, the very buffer given, with everything around
 * it in one small buffer. node-postgres copies every value into one message it grows by half again
 * at each value that does not fit, from 256 bytes: a round's 8 MB statement made ~24 MB of buffers
 * a round, and each 64 MB of new buffers starts a full collection of the round's thread, 0.8–1.1 s
 * of CPU (docs/operations.md). Written as pieces, a statement's bytes are those its columns
 * already hold (lib/db/array-binary.ts).
 */

/** What node-postgres asks its connection to bind (pg's Query.prepare); `valueMapper` turns each value into text, bytes or null. */
export interface BindConfig {
  portal?: string;
  statement?: string;
  values?: readonly unknown[];
  binary?: boolean;
  valueMapper?: (value: unknown, index: number) => unknown;
}

/** A value this long or longer is written as its own piece rather than copied. */
const OWN_PIECE_BYTES = 16 * 1024;

const BIND = 0x42; // 'B'

/**
 * The Bind message's bytes, in order: concatenated, exactly node-postgres's `serialize.bind(config)`.
 * Throws if a value cannot be mapped, as node-postgres does, with nothing written yet.
 */
export function bindMessagePieces(config: BindConfig): Buffer[] {
  const portal = config.portal ?? "";
  const statement = config.statement ?? "";
  const given = config.values ?? [];
  const values = given.map((value, i) => (config.valueMapper ? config.valueMapper(value, i) : value));
  const lengths = values.map((value) => (value == null ? -1 : value instanceof Buffer ? value.length : Buffer.byteLength(String(value))));
  const portalBytes = Buffer.byteLength(portal);
  const statementBytes = Buffer.byteLength(statement);
  // After the type byte: the length, the names, the formats' count and codes, the values' count, each value, the result format.
  let body = 4 + portalBytes + 1 + statementBytes + 1 + 2 + 2 * values.length + 2 + 2 + 2;
  let ownPieces = 0;
  for (let i = 0; i < values.length; i++) {
    body += 4 + Math.max(0, lengths[i]!);
    if (isOwnPiece(values[i])) ownPieces += lengths[i]!;
  }
  const small = Buffer.allocUnsafe(1 + body - ownPieces);
  let at = 0;
  small[at++] = BIND;
  at = small.writeInt32BE(body, at);
  at += small.write(portal, at, "utf8");
  small[at++] = 0;
  at += small.write(statement, at, "utf8");
  small[at++] = 0;
  at = small.writeInt16BE(values.length, at);
  for (const value of values) at = small.writeInt16BE(value instanceof Buffer ? 1 : 0, at);
  at = small.writeInt16BE(values.length, at);
  const pieces: Buffer[] = [];
  let pieceStart = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    at = small.writeInt32BE(lengths[i]!, at);
    if (value == null) continue;
    if (isOwnPiece(value)) {
      pieces.push(small.subarray(pieceStart, at), value);
      pieceStart = at;
    } else if (value instanceof Buffer) {
      at += value.copy(small, at);
    } else {
      at += small.write(String(value), at, "utf8");
    }
  }
  // One format code for every result column: binary or text.
  at = small.writeInt16BE(1, at);
  at = small.writeInt16BE(config.binary ? 1 : 0, at);
  pieces.push(small.subarray(pieceStart, at));
  return pieces;
}

function isOwnPiece(value: unknown): value is Buffer {
  return value instanceof Buffer && value.length >= OWN_PIECE_BYTES;
}
