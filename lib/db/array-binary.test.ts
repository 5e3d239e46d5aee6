import { describe, expect, it } from "vitest";
import { ColumnParams, float8ArrayParam, textArrayParam, timestampArrayParam } from "./array-binary";

/** PostgreSQL's array_send layout read back: the header's fields and each element's eight bytes (null for NULL). */
function layout(buffer: Buffer) {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const [dimensions, hasNull, elementType, length, lowerBound] = [0, 4, 8, 12, 16].map((at) => view.getInt32(at));
  const elements: (Buffer | null)[] = [];
  let at = 20;
  for (let i = 0; i < length!; i++) {
    const size = view.getInt32(at);
    at += 4;
    elements.push(size === -1 ? null : buffer.subarray(at, (at += size)));
  }
  expect(at, "no bytes after the last element").toBe(buffer.length);
  return { dimensions, hasNull, elementType, lowerBound, elements };
}

describe("binary array parameters", () => {
  it("write a float8[] of one dimension from 1, each number's eight bytes big-endian, NULL where there is none or it is not finite", () => {
    const numbers = [0.1 + 0.2, null, -0, 5e-324, Number.MAX_VALUE, undefined, Number.NaN, Number.POSITIVE_INFINITY, -97_000.5];
    const { dimensions, hasNull, elementType, lowerBound, elements } = layout(float8ArrayParam(numbers, (n) => n));
    expect({ dimensions, hasNull, elementType, lowerBound }).toEqual({ dimensions: 1, hasNull: 1, elementType: 701, lowerBound: 1 });
    expect(elements.map((bytes) => bytes && bytes.readDoubleBE(0))).toEqual([0.1 + 0.2, null, -0, 5e-324, Number.MAX_VALUE, null, null, null, -97_000.5]);
    expect(Object.is(elements[2]!.readDoubleBE(0), -0)).toBe(true);
    expect(layout(float8ArrayParam([1, 2], (n) => n)).hasNull).toBe(0);
    expect(layout(float8ArrayParam([], (n: number) => n)).elements).toEqual([]);
  });

  it("write a text[] as each text's UTF-8 bytes, unquoted and unescaped", () => {
    const texts = ["BTC/USDT:USDT", null, "", 'say "hi"', "back\\slash", "NULL", "{a,b}", "ünï 1000PEPE", "a\nb", undefined];
    const { elementType, hasNull, elements } = layout(textArrayParam(texts, (t) => t));
    expect({ elementType, hasNull }).toEqual({ elementType: 25, hasNull: 1 });
    expect(elements.map((bytes) => bytes && bytes.toString("utf8"))).toEqual(texts.map((t) => t ?? null));
  });

  it("write a timestamp[] as microseconds since 2000-01-01, before it too", () => {
    const times = [Date.UTC(2026, 11, 5, 22, 1, 38, 117), null, Date.UTC(2000, 0, 1), Date.UTC(1999, 11, 31, 23, 59, 59, 999), 0];
    const { elementType, hasNull, elements } = layout(timestampArrayParam(times, (t) => t));
    expect({ elementType, hasNull }).toEqual({ elementType: 1114, hasNull: 1 });
    const micros = elements.map((bytes) => bytes && bytes.readBigInt64BE(0));
    expect(micros).toEqual([BigInt(Date.UTC(2026, 11, 5, 22, 1, 38, 117) - Date.UTC(2000, 0, 1)) * 1000n, null, 0n, -1000n, BigInt(-Date.UTC(2000, 0, 1)) * 1000n]);
  });
});

describe("a statement's column parameters kept from one statement to the next", () => {
  const rows = [
    { market: "BTC/USDT:USDT", rate: 0.0001 },
    { market: 'a "quoted" one', rate: null },
  ];

  it("are the parameters of the values given, written anew whenever a value, the length or the column differs", () => {
    const kept = new ColumnParams();
    expect(kept.text("market", rows, (r) => r.market)).toEqual(textArrayParam(rows, (r) => r.market));
    expect(kept.float8("rate", rows, (r) => r.rate)).toEqual(float8ArrayParam(rows, (r) => r.rate));
    const changed = [rows[0]!, { ...rows[1]!, rate: 0.0002 }];
    expect(kept.float8("rate", changed, (r) => r.rate)).toEqual(float8ArrayParam([0.0001, 0.0002], (n) => n));
    expect(kept.float8("rate", [changed[0]!], (r) => r.rate)).toEqual(float8ArrayParam([0.0001], (n) => n));
    // A column of its own name, and of its own kind.
    expect(kept.float8("other", rows, (r) => r.market.length)).toEqual(float8ArrayParam([13, 14], (n) => n));
    expect(kept.text("rate", [{ rate: "5" }], (r) => r.rate)).toEqual(textArrayParam(["5"], (t) => t));
  });

  it("write out a column whose values are the last statement's no more: the same bytes come back", () => {
    const kept = new ColumnParams();
    const first = kept.text("market", rows, (r) => r.market);
    expect(kept.text("market", rows.map((r) => ({ ...r })), (r) => r.market)).toBe(first);
    const longer = kept.text("market", [...rows, { market: "ETH/USDT:USDT", rate: 0 }], (r) => r.market);
    expect(longer).not.toBe(first);
    expect(longer).toEqual(textArrayParam(["BTC/USDT:USDT", 'a "quoted" one', "ETH/USDT:USDT"], (t) => t));
  });
});
