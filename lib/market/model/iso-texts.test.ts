import { describe, expect, it } from "vitest";
import { isoTexts } from "./iso-texts";

describe("isoTexts", () => {
  it("writes every time as toISOString does, across minutes, days, years and the edges of the range", () => {
    const iso = isoTexts();
    const base = Date.parse("2026-12-05T23:59:58.997Z");
    const times = [
      ...Array.from({ length: 5_000 }, (_, i) => base + i * 7),
      ...Array.from({ length: 2_000 }, (_, i) => Date.UTC(1970 + (i % 60), i % 12, 1 + (i % 28), i % 24, i % 60, i % 60, i % 1000)),
      0,
      -1,
      -59_999,
      -60_000,
      Date.parse("1999-12-31T23:59:59.999Z"),
      Date.parse("2024-02-29T12:00:00.000Z"),
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z, the last four-digit year
      253_402_300_800_000, // +010000-01-01: a six-digit year
      -62_167_219_200_001, // -000001-12-31T23:59:59.999Z
      1.5,
      base + 0.25,
    ];
    for (const time of times) expect(iso(time)).toBe(new Date(time).toISOString());
  });

  it("gives a time met before its text again, the right one for each time, asked in any order", () => {
    const iso = isoTexts();
    const times = [Date.UTC(2026, 11, 6, 18, 0, 0, 0), Date.UTC(2026, 11, 6, 17, 59, 59, 999), -0, 0, Date.UTC(2026, 11, 6, 18, 0, 0, 1)];
    const expected = times.map((time) => new Date(time).toISOString());
    expect(times.map(iso)).toEqual(expected);
    expect([...times].reverse().map(iso).reverse()).toEqual(expected);
  });

  it("throws for an invalid time, as toISOString does", () => {
    const iso = isoTexts();
    expect(() => iso(Number.NaN)).toThrow(RangeError);
    expect(() => iso(8.64e15 + 1)).toThrow(RangeError);
  });
});
