// Writes the folder → layer table of scripts/lint/layers.cjs as the markdown table that
// docs/ARCHITECTURE.md shows between its layer-table markers, so the page shows what the linter
// enforces. `node scripts/lint/layer-table.mjs --write` updates the page; a test compares them.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const { LAYERS } = createRequire(import.meta.url)("./layers.cjs");
export const ARCHITECTURE = fileURLToPath(new URL("../../docs/ARCHITECTURE.md", import.meta.url));
const START = "<!-- layer-table: written by scripts/lint/layer-table.mjs -->";
const END = "<!-- /layer-table -->";

/** The table, lowest layer first. */
export function layerTable() {
  const rows = LAYERS.map((layer, index) => `| ${index + 1} | ${layer.name} | ${layer.units.map((unit) => `\`${unit}\``).join(", ")} | ${layer.why} |`);
  return ["| # | Layer | Units | What |", "|---|---|---|---|", ...rows].join("\n");
}

/** The page's table as it stands, or null when the markers are missing. */
export function tableInPage(page) {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return null;
  return page.slice(start + START.length, end).trim();
}

if (process.argv.includes("--write")) {
  const page = readFileSync(ARCHITECTURE, "utf8");
  if (tableInPage(page) === null) throw new Error(`${ARCHITECTURE} has no ${START} … ${END} markers`);
  const start = page.indexOf(START) + START.length;
  writeFileSync(ARCHITECTURE, `${page.slice(0, start)}\n${layerTable()}\n${page.slice(page.indexOf(END))}`);
}
