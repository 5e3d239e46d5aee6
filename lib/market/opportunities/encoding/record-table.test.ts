import { describe, expect, it } from "vitest";
import { readRecordTable, recordTable, sameThroughout, type RecordTable } from "./record-table";

/** The records written into a table and read back through its sections in order, as a stored set's body is read. */
function roundTrip(records: readonly object[]): { table: RecordTable; sections: ArrayBufferView[]; read: Record<string, unknown>[] } {
  const { table, sections } = recordTable(records);
  let next = 0;
  const read = readRecordTable(table, (type, length) => {
    const section = sections[next++];
    if (!section) throw new Error("read past the table's sections");
    expect(section.byteLength).toBe(length * type.BYTES_PER_ELEMENT);
    return new type(section.buffer, section.byteOffset, length);
  });
  expect(next).toBe(sections.length);
  return { table, sections, read };
}

describe("a record table", () => {
  it("reads back numbers bit for bit, texts, booleans, nulls and absent fields as they were", () => {
    const records = [
      { exchange: "binance", rate: 0.1 + 0.2, hours: 8, at_cap: false, settled_at: null, note: "a \"quoted\" text, with\nlines" },
      { exchange: "okx", rate: -0, hours: 4, at_cap: true, settled_at: "2026-12-05T08:00:00.000Z", note: "" },
      { exchange: "binance", rate: 5e-324, hours: 1, at_cap: false, settled_at: null, note: "ü → 🚀" },
    ];
    const { read } = roundTrip(records);
    expect(read).toEqual(records);
    expect(Object.is(read[1]!.rate, -0)).toBe(true);
    expect(read.map((r) => r.rate)).toEqual(records.map((r) => r.rate));
  });

  it("lists each distinct text once, and stores no states for a field every record holds alike", () => {
    const records = Array.from({ length: 50 }, (_, i) => ({ exchange: i % 2 ? "okx" : "bybit", source: "venue", rate: i / 7 }));
    const { table, sections, read } = roundTrip(records);
    expect(table.texts.sort()).toEqual(["bybit", "okx", "venue"]);
    // Every field is a value throughout: no state bytes, one section of positions or numbers each.
    expect(table.fields.map((f) => f.same)).toEqual([2, 2, 2]);
    expect(sections).toHaveLength(3);
    expect(read).toEqual(records);
  });

  it("leaves a field out of the records that lack it, its fields in the order they first appear", () => {
    const records = [{ a: 1, b: "x" }, { a: 2, b: "y", underlying_class: "equity" }, { a: 3, b: "z", trading_hours: null }];
    const { table, read } = roundTrip(records);
    expect(table.fields.map((f) => f.name)).toEqual(["a", "b", "underlying_class", "trading_hours"]);
    expect(read).toEqual(records);
    expect(read[0]).not.toHaveProperty("underlying_class");
    expect(read[2]).toHaveProperty("trading_hours", null);
    // An undefined field is left out, as JSON leaves it out.
    expect(roundTrip([{ a: 1, b: undefined }]).read).toEqual([{ a: 1 }]);
  });

  it("writes a number JSON cannot carry as null, as JSON does", () => {
    expect(roundTrip([{ a: Number.NaN }, { a: Infinity }, { a: 1 }]).read).toEqual([{ a: null }, { a: null }, { a: 1 }]);
  });

  it("writes a field of several kinds, or of objects, as their JSON, and reads them back as they were", () => {
    const records = [{ v: 1 }, { v: "1" }, { v: { nested: [1, "a"] } }, { v: null }, { v: true }];
    const { table, read } = roundTrip(records);
    expect(table.fields).toEqual([{ name: "v", kind: "json" }]);
    expect(read).toEqual(records);
  });

  it("reads an empty list as one", () => {
    expect(roundTrip([]).read).toEqual([]);
  });

  it("refuses a text position or a state the table does not have", () => {
    const { table, sections } = recordTable([{ exchange: "okx", at_cap: true }]);
    const reader = (edited: ArrayBufferView[]) => {
      let next = 0;
      return <T extends Float64Array | Uint32Array | Uint8Array>(type: { new (buffer: ArrayBufferLike, offset: number, length: number): T }, length: number) => {
        const section = edited[next++]!;
        return new type(section.buffer, section.byteOffset, length);
      };
    };
    expect(() => readRecordTable({ ...table, texts: [] }, reader(sections))).toThrow(/refers to text 0/);
    const flipped = table.fields.map((f) => (f.name === "at_cap" ? { ...f, same: 2 + 5 } : f));
    expect(() => readRecordTable({ ...table, fields: flipped }, reader(sections))).toThrow(/no state 7/);
  });
});

describe("sameThroughout", () => {
  // Around the 4 KB blocks it compares: shorter, one element short of one, exactly one, and longer.
  const lengths = [1, 2, 1_023, 1_024, 1_025, 4_095, 4_096, 4_097, 450_001];

  it("says the value every element of either kind of array holds", () => {
    for (const length of lengths) {
      expect(sameThroughout(new Uint8Array(length).fill(3))).toBe(3);
      expect(sameThroughout(new Uint32Array(length).fill(0x01020304))).toBe(0x01020304);
    }
    expect(sameThroughout(new Uint8Array(0))).toBeUndefined();
  });

  it("finds one element that differs, wherever it is, even in one byte of four", () => {
    for (const length of lengths.filter((n) => n > 1)) {
      for (const at of new Set([0, 1, 1_023, 1_024, 4_095, 4_096, Math.floor(length / 2), length - 1].filter((i) => i < length))) {
        const bytes = new Uint8Array(length).fill(3);
        bytes[at] = 2;
        expect(sameThroughout(bytes), `${length} bytes, at ${at}`).toBeUndefined();
        const words = new Uint32Array(length).fill(0x01020304);
        words[at] = 0x01020305;
        expect(sameThroughout(words), `${length} words, at ${at}`).toBeUndefined();
      }
    }
  });

  it("reads only the view it is given, not the rest of its buffer", () => {
    const words = new Uint32Array(10_000).fill(7);
    words[0] = 1;
    words[9_999] = 2;
    expect(sameThroughout(words.subarray(1, 9_999))).toBe(7);
    expect(sameThroughout(new Uint8Array(words.buffer, 4, 4 * 9_998))).toBeUndefined();
    expect(sameThroughout(new Uint8Array(words.buffer, 4, 4 * 9_998).fill(9))).toBe(9);
  });
});
