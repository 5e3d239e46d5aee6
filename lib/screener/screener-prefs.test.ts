import { describe, expect, it } from "vitest";
import { DEFAULT_COLUMNS, DEFAULT_PREFS, filterQuery, parsePrefs, serialisePrefs } from "./screener-prefs";

describe("filterQuery", () => {
  it("keeps the filter parameters, sorted, and drops the page offset and unknown names", () => {
    expect(filterQuery("?symbol=btc&offset=50&exchanges=okx,bybit&foo=1&min_apr=5")).toBe("exchanges=okx,bybit&min_apr=5&symbol=btc");
  });

  it("drops empty values and keeps only the first of a repeated name", () => {
    expect(filterQuery("symbol=&exchange=okx&exchange=bybit")).toBe("exchange=okx");
  });

  it("saves nothing rather than an address too long to be a set of filters", () => {
    expect(filterQuery(`symbol=${"x".repeat(3000)}`)).toBe("");
  });
});

describe("parsePrefs", () => {
  it("reads back what it wrote", () => {
    const prefs = { filters: "exchange=okx&sort=apr", columns: ["apr_1d", "volume"] as const, density: "compact" as const };
    expect(parsePrefs(serialisePrefs(prefs))).toEqual({ ...prefs, columns: ["apr_1d", "volume"] });
  });

  it("is the default when nothing or something unreadable was stored", () => {
    expect(parsePrefs(null)).toEqual(DEFAULT_PREFS);
    expect(parsePrefs("{not json")).toEqual(DEFAULT_PREFS);
    expect(parsePrefs("42")).toEqual(DEFAULT_PREFS);
  });

  it("loses only the fields it cannot read, and unknown columns", () => {
    const prefs = parsePrefs(JSON.stringify({ filters: 7, columns: ["volume", "nonsense", "apr_1d"], density: "dense" }));
    expect(prefs).toEqual({ filters: "", columns: ["apr_1d", "volume"], density: "comfortable" });
  });

  it("keeps an empty column choice (every optional column hidden), and defaults a missing one", () => {
    expect(parsePrefs(JSON.stringify({ columns: [] })).columns).toEqual([]);
    expect(parsePrefs(JSON.stringify({ density: "compact" })).columns).toEqual(DEFAULT_COLUMNS);
  });

  it("cleans stored filters as it would new ones", () => {
    expect(parsePrefs(JSON.stringify({ filters: "offset=100&symbol=eth" })).filters).toBe("symbol=eth");
  });
});
