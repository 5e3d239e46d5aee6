import { describe, expect, it } from "vitest";
import { hibachiUnderlyingClass } from "./hibachi";

describe("hibachiUnderlyingClass", () => {
  it("reads CRYPTO as crypto and FX as fx", () => {
    expect(hibachiUnderlyingClass("CRYPTO", [], "BTC")).toBe("crypto");
    expect(hibachiUnderlyingClass("FX", ["major"], "EUR")).toBe("fx");
  });

  it("takes a commodity tag over the FX category", () => {
    expect(hibachiUnderlyingClass("FX", ["commodity"], "XAG")).toBe("commodity");
    expect(hibachiUnderlyingClass("FX", [], "XAG")).toBe("fx");
  });

  it("leaves an unknown category's unknown ticker as other, never crypto", () => {
    expect(hibachiUnderlyingClass("EQUITY", [], "ACME")).toBe("other");
    expect(hibachiUnderlyingClass(undefined, undefined, "TSLA")).toBe("equity");
  });
});
