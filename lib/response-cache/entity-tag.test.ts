import { describe, expect, it } from "vitest";
import { contentHash, entityTag, ifNoneMatchMatches } from "./entity-tag";

describe("entity tags", () => {
  it("hash the content, the same however it is split into parts", () => {
    expect(contentHash("ab", "c")).toBe(contentHash("a", Buffer.from("bc")));
    expect(contentHash("abc")).not.toBe(contentHash("abd"));
    expect(contentHash("abc")).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("give each content coding its own strong tag", () => {
    expect(entityTag("h", "identity")).toBe('"h"');
    expect(entityTag("h", "gzip")).toBe('"h-gzip"');
    expect(entityTag("h", "br")).toBe('"h-br"');
  });
});

describe("ifNoneMatchMatches", () => {
  const tag = '"abc"';
  it.each([
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" , "y"', true],
    ["*", true],
    ['"abc-gzip"', false],
    ['"ab"', false],
    ["abc", false],
    ['"a,b", "abc"', true],
    ['"unterminated', false],
    ["", false],
  ])("%s → %s", (header, matches) => {
    expect(ifNoneMatchMatches(header, tag)).toBe(matches);
  });

  it("matches nothing without the header", () => {
    expect(ifNoneMatchMatches(undefined, tag)).toBe(false);
    expect(ifNoneMatchMatches(null, tag)).toBe(false);
  });
});
