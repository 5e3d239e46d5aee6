import { describe, expect, it } from "vitest";
import { plainArrayLiteral, textArrayLiteral } from "./array-literal";

describe("array literals", () => {
  it("writes numbers and times bare, absent values as NULL", () => {
    expect(plainArrayLiteral([1.5, null, -2e-7, undefined, "2026-11-25T00:00:00.000Z"], (v) => v)).toBe("{1.5,NULL,-2e-7,NULL,2026-11-25T00:00:00.000Z}");
    expect(plainArrayLiteral([], (v) => v)).toBe("{}");
  });

  it("quotes every text and escapes its quotes and backslashes", () => {
    expect(textArrayLiteral(["BTC/USDT:USDT", null, "", 'a "b"', "c\\d", "NULL", "{x,y}"], (v) => v)).toBe(
      '{"BTC/USDT:USDT",NULL,"","a \\"b\\"","c\\\\d","NULL","{x,y}"}',
    );
    expect(textArrayLiteral([{ n: 3 }], (row) => row.n)).toBe('{"3"}');
  });
});
