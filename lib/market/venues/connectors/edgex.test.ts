import { describe, expect, it } from "vitest";
import { edgexData, edgexUnderlyingClass } from "./edgex";

describe("edgexData", () => {
  it("gives the data of a SUCCESS answer", () => {
    expect(edgexData({ code: "SUCCESS", data: [1] }, "x")).toEqual([1]);
  });

  it("throws on any other code, naming the call, the code and the message", () => {
    expect(() => edgexData({ code: "RATE_LIMIT", msg: "slow down", data: [] }, "getMetaData")).toThrow("getMetaData: code RATE_LIMIT slow down");
    expect(() => edgexData([], "getMetaData")).toThrow("getMetaData: code undefined");
  });
});

describe("edgexUnderlyingClass", () => {
  it("follows the contract's flags first", () => {
    expect(edgexUnderlyingClass({ isFx: true, isStock: false })).toBe("fx");
    expect(edgexUnderlyingClass({ isFx: false, isStock: true })).toBe("equity");
  });

  it("leaves an unflagged contract, metals included, in the default class", () => {
    expect(edgexUnderlyingClass({ isFx: false, isStock: false })).toBe("crypto");
    expect(edgexUnderlyingClass({})).toBe("crypto");
  });
});
