import { describe, expect, it } from "vitest";
import { plainArrayLiteral, textArrayLiteral } from "./array-literal";

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
