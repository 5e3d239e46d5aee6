import { describe, expect, it } from "vitest";
import { negotiateEncoding } from "./accept-encoding";

describe("negotiateEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip", "gzip"],
    ["x-gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0", "identity"],
    ["deflate", "identity"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["GZIP", "gzip"],
    ["identity", "identity"],
    ["gzip;q=0.4, identity;q=0.8", "identity"],
    ["gzip;q=0.8, identity;q=0.8", "gzip"],
    ["gzip ; q=0.5", "gzip"],
  ])("%s → %s", (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});
