import { describe, expect, it, vi } from "vitest";
import { float8ArrayParam } from "./array-binary";
import { ColumnParams, plainArrayLiteral, textArrayLiteral } from "./array-literal";

describe("array literals", () => {
  it("writes numbers and times bare, absent values as NULL", () => {
    expect(plainArrayLiteral([1.5, null, -2e-7, undefined, 0.1 + 0.2], (v) => v)).toBe("{1.5,null,-2e-7,null,0.30000000000000004}");
    expect(plainArrayLiteral(["2026-11-25T00:00:00.000Z"], (v) => v)).toBe('{"2026-11-25T00:00:00.000Z"}');
    expect(plainArrayLiteral([], (v) => v)).toBe("{}");
  });

  it("quotes every text and escapes its quotes and backslashes", () => {
    expect(textArrayLiteral(["BTC/USDT:USDT", null, "", 'a "b"', "c\\d", "NULL", "{x,y}", "\\"], (v) => v)).toBe(
      '{"BTC/USDT:USDT",null,"","a \\"b\\"","c\\\\d","NULL","{x,y}","\\\\"}',
    );
    expect(textArrayLiteral([{ n: 3 }], (row) => row.n)).toBe('{"3"}');
  });

  it("quotes texts with control characters one by one, as the characters themselves", () => {
    expect(textArrayLiteral(["a\nb", "c\\", "\u0001"], (v) => v)).toBe('{"a\nb","c\\\\","\u0001"}');
    // A backslash before an n is text, not a control character: the fast path keeps it.
    expect(textArrayLiteral(["c\\n"], (v) => v)).toBe('{"c\\\\n"}');
  });
});

describe("a statement's column parameters kept from one statement to the next", () => {
  const rows = [
    { market: "BTC/USDT:USDT", rate: 0.0001 },
    { market: 'a "quoted" one', rate: null },
  ];

  it("are the parameters of the values given, written anew whenever a value, the length or the column differs", () => {
    const kept = new ColumnParams();
    expect(kept.text("market", rows, (r) => r.market)).toBe(textArrayLiteral(rows, (r) => r.market));
    expect(kept.float8("rate", rows, (r) => r.rate)).toEqual(float8ArrayParam(rows, (r) => r.rate));
    const changed = [rows[0]!, { ...rows[1]!, rate: 0.0002 }];
    expect(kept.float8("rate", changed, (r) => r.rate)).toEqual(float8ArrayParam([0.0001, 0.0002], (n) => n));
    expect(kept.float8("rate", [changed[0]!], (r) => r.rate)).toEqual(float8ArrayParam([0.0001], (n) => n));
    // A column of its own name, and of its own kind: texts are quoted.
    expect(kept.float8("other", rows, (r) => r.market.length)).toEqual(float8ArrayParam([13, 14], (n) => n));
    expect(kept.text("rate", [{ rate: 5 }], (r) => r.rate)).toBe('{"5"}');
  });

  it("write out a column whose values are the last statement's no more", () => {
    const kept = new ColumnParams();
    const first = kept.text("market", rows, (r) => r.market);
    const written = vi.spyOn(JSON, "stringify");
    try {
      expect(kept.text("market", rows.map((r) => ({ ...r })), (r) => r.market)).toBe(first);
      expect(written).not.toHaveBeenCalled();
      kept.text("market", [...rows, { market: "ETH/USDT:USDT", rate: 0 }], (r) => r.market);
      expect(written).toHaveBeenCalledTimes(1);
    } finally {
      written.mockRestore();
    }
  });
});
