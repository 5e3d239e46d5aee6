// PostgreSQL's binary form of one-dimensional `float8[]`, `timestamp[]` and `text[]` parameters,
// for statements that pass whole columns (a round's 26,000 observations have 23). Both drivers send
// a Buffer parameter in binary (format 1) and PostgreSQL reads it with array_recv: no number is
// written out as text here nor parsed back there, no text quoted here nor unquoted there. As array
// literals, the number columns alone cost the round's thread ~20 ms and the database ~25 ms.

const TEXT = 25;
const FLOAT8 = 701;
const TIMESTAMP = 1114;
/** PostgreSQL's epoch, from which a binary timestamp counts microseconds. */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const HEADER_BYTES = 20;
const TWO_TO_32 = 2 ** 32;

type NumberOf<T> = (row: T) => number | null | undefined;

/** `rows` picked as a `float8[]` parameter: null, undefined and what is not finite (as JSON writes it) are NULL. */
export function float8ArrayParam<T>(rows: readonly T[], pick: NumberOf<T>): Buffer {
  return arrayParam(rows, pick, FLOAT8, (view, at, value) => view.setFloat64(at, value));
}

/** `rows` picked as epoch milliseconds, as a `timestamp[]` parameter (UTC, as the schema stores it); null and undefined are NULL. */
export function timestampArrayParam<T>(rows: readonly T[], pick: NumberOf<T>): Buffer {
  return arrayParam(rows, pick, TIMESTAMP, (view, at, epochMs) => {
    // Microseconds as a signed 64-bit integer, in two halves: every instant a venue reports is
    // well within the 2^53 a double holds exactly.
    const micros = Math.round((epochMs - POSTGRES_EPOCH_MS) * 1000);
    const high = Math.floor(micros / TWO_TO_32);
    view.setInt32(at, high);
    view.setUint32(at + 4, micros - high * TWO_TO_32);
  });
}

/** `rows` picked as a `text[]` parameter, each text its UTF-8 bytes; null and undefined are NULL. */
export function textArrayParam<T>(rows: readonly T[], pick: (row: T) => string | null | undefined): Buffer {
  return textArrayOf(rows.map(pick));
}

function textArrayOf(texts: readonly (string | null | undefined)[]): Buffer {
  let bytes = HEADER_BYTES;
  let nulls = 0;
  for (const text of texts) {
    if (typeof text === "string") bytes += 4 + Buffer.byteLength(text);
    else {
      bytes += 4;
      nulls++;
    }
  }
  const buffer = Buffer.allocUnsafe(bytes);
  writeHeader(buffer, nulls, TEXT, texts.length);
  let at = HEADER_BYTES;
  for (const text of texts) {
    if (typeof text === "string") {
      const length = buffer.write(text, at + 4);
      buffer.writeInt32BE(length, at);
      at += 4 + length;
    } else {
      buffer.writeInt32BE(-1, at);
      at += 4;
    }
  }
  return buffer;
}

/** One dimension, whether any element is NULL, the elements' type, then the dimension's length and lower bound. */
function writeHeader(buffer: Buffer, nulls: number, elementType: number, length: number): void {
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(nulls > 0 ? 1 : 0, 4);
  buffer.writeInt32BE(elementType, 8);
  buffer.writeInt32BE(length, 12);
  buffer.writeInt32BE(1, 16);
}

function arrayParam<T>(rows: readonly T[], pick: NumberOf<T>, elementType: number, write: (view: DataView, at: number, value: number) => void): Buffer {
  const values = new Float64Array(rows.length);
  let nulls = 0;
  for (let i = 0; i < rows.length; i++) {
    const value = pick(rows[i]!);
    if (typeof value === "number" && Number.isFinite(value)) values[i] = value;
    else {
      values[i] = Number.NaN;
      nulls++;
    }
  }
  const buffer = Buffer.allocUnsafe(HEADER_BYTES + 4 * rows.length + 8 * (rows.length - nulls));
  writeHeader(buffer, nulls, elementType, rows.length);
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  // Each element: its length in bytes (-1 for NULL), then its eight bytes.
  let at = HEADER_BYTES;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (Number.isNaN(value)) {
      view.setInt32(at, -1);
      at += 4;
    } else {
      view.setInt32(at, 8);
      write(view, at + 4, value);
      at += 12;
    }
  }
  return buffer;
}

/**
 * Each named column's last parameter, kept with the values it was written from, so a column whose
 * values are the last statement's is not written out again: of a round's 23 snapshot columns, the
 * 15 that describe its markets (names, multiplier, bounds, interval, fee) are the same from one
 * round to the next but for a listing or a change. Values are compared with ===, so the parameter is
 * always that of the values given.
 */
export class ColumnParams {
  private readonly kept = new Map<string, { values: readonly unknown[]; written: Buffer }>();

  /** `float8ArrayParam` of `rows`, written out only when its values changed. */
  float8<T>(column: string, rows: readonly T[], pick: (row: T) => number | null | undefined): Buffer {
    return this.written(`float8:${column}`, rows.map(pick), (values) => float8ArrayParam(values, (value) => value));
  }

  /** `textArrayParam` of `rows`, written out only when its values changed. */
  text<T>(column: string, rows: readonly T[], pick: (row: T) => string | null | undefined): Buffer {
    return this.written(`text:${column}`, rows.map(pick), textArrayOf);
  }

  private written<V>(key: string, values: readonly V[], write: (values: readonly V[]) => Buffer): Buffer {
    const kept = this.kept.get(key);
    if (kept && sameValues(kept.values, values)) return kept.written;
    const written = write(values);
    this.kept.set(key, { values, written });
    return written;
  }
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
