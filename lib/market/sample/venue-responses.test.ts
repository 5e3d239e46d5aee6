import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sampleMarketFile } from "@/tests/fixtures/venues/sample-venue-responses";
import { sampleCarryFile } from "@/tests/fixtures/carry/sample-carry-responses";

describe("the bundled offline sample", () => {
  it("is exactly what its sources build (run `npm run sample:build` after changing them)", () => {
    const bundled = JSON.parse(readFileSync(new URL("./venue-responses.json", import.meta.url), "utf8"));
    expect(bundled).toEqual(JSON.parse(JSON.stringify(sampleMarketFile())));
    const carry = JSON.parse(readFileSync(new URL("./carry-responses.json", import.meta.url), "utf8"));
    expect(carry).toEqual(JSON.parse(JSON.stringify(sampleCarryFile())));
  });
});
