import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ARCHITECTURE, layerTable, tableInPage } from "./layer-table.mjs";

describe("docs/ARCHITECTURE.md's layer table", () => {
  it("is the table the linter enforces (node scripts/lint/layer-table.mjs --write)", () => {
    expect(tableInPage(readFileSync(ARCHITECTURE, "utf8"))).toBe(layerTable());
  });

  it("has a row per layer, lowest first", () => {
    const rows = layerTable().split("\n").slice(2);
    expect(rows[0]).toMatch(/^\| 1 \| foundation \|/);
    expect(rows.some((row) => row.includes("`lib/market/ingest`"))).toBe(true);
  });
});
