// PostgreSQL's binary form of one-dimensional `float8[]` and `timestamp[]` parameters, for
// statements that pass whole columns of numbers (a round's 26,000 observations have 13). Both
// drivers send a Buffer parameter in binary (format 1) and PostgreSQL reads it with array_recv:
// no number is written out as text here, nor parsed back from text there. In array literals those
// columns cost the round's thread ~40 ms and the database ~25 ms of its statement.

const FLOAT8 = 701;
const TIMESTAMP = 1114;
/** PostgreSQL's epoch, from which a binary timestamp counts microseconds. */
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const HEADER_BYTES = 20;
const TWO_TO_32 = 2 ** 32;

type Pick<T> = (row: T) => number | null | undefined;

/** `rows` picked as a `float8[]` parameter: null, undefined and what is not finite (as JSON writes it) are NULL. */
export function float8ArrayParam<T>(rows: readonly T[], pick: Pick<T>): Buffer {
  return arrayParam(rows, pick, FLOAT8, (view, at, value) => view.setFloat64(at, value));
}

/** `rows` picked as epoch milliseconds, as a `timestamp[]` parameter (UTC, as the schema stores it); null and undefined are NULL. */
export function timestampArrayParam<T>(rows: readonly T[], pick: Pick<T>): Buffer {
  return arrayParam(rows, pick, TIMESTAMP, (view, at, epochMs) => {
    // Microseconds as a signed 64-bit integer, in two halves: every instant a venue reports is
    // well within the 2^53 a double holds exactly.
    const micros = Math.round((epochMs - POSTGRES_EPOCH_MS) * 1000);
    const high = Math.floor(micros / TWO_TO_32);
    view.setInt32(at, high);
    view.setUint32(at + 4, micros - high * TWO_TO_32);
  });
}

function arrayParam<T>(rows: readonly T[], pick: Pick<T>, elementType: number, write: (view: DataView, at: number, value: number) => void): Buffer {
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
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  // One dimension, whether any element is NULL, the elements' type, then the dimension's length and lower bound.
  view.setInt32(0, 1);
  view.setInt32(4, nulls > 0 ? 1 : 0);
  view.setInt32(8, elementType);
  view.setInt32(12, rows.length);
  view.setInt32(16, 1);
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
