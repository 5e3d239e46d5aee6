// `npm run lint`'s import check: dependency-cruiser with .dependency-cruiser.cjs (file cycles, the
// layer rules), then the folder graph: every unit has a row in scripts/lint/layers.cjs and no two
// units import each other. Exits 1 on any finding.
//   node scripts/lint/check-dependencies.mjs [--graph FILE]   FILE: the folder graph as text
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cycles, folderGraph, formatGraph, unitsWithoutLayer } from "./folder-graph.mjs";
import layers from "./layers.cjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCES = ["app", "lib", "scripts", "tests", "e2e", "clients", "server.ts", "proxy.ts"];

const run = spawnSync(
  process.execPath,
  [path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs"), "--config", ".dependency-cruiser.cjs", "--output-type", "json", ...SOURCES],
  { cwd: ROOT, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
);
if (run.error || !run.stdout.trim()) {
  console.error(run.error ?? run.stderr);
  process.exit(2);
}
const result = JSON.parse(run.stdout);

const problems = [];
for (const violation of result.summary.violations) {
  if (violation.rule.severity !== "error") continue;
  const what = violation.cycle?.length ? [violation.from, ...violation.cycle.map((step) => step.name ?? step)].join(" → ") : `${violation.from} → ${violation.to}`;
  problems.push(`${violation.rule.name}: ${what}`);
}
const graph = folderGraph(result.modules);
for (const unit of unitsWithoutLayer(graph, layers.LAYER_OF)) problems.push(`no-layer: ${unit} has no row in scripts/lint/layers.cjs`);
for (const cycle of cycles(graph)) problems.push(`no-folder-cycle: ${cycle.join(" ⇄ ")} import each other`);

const graphFile = process.argv.indexOf("--graph");
if (graphFile > 0) writeFileSync(process.argv[graphFile + 1], `${formatGraph(graph)}\n`);

for (const problem of problems) console.error(problem);
if (problems.length) {
  console.error(`\n${problems.length} import problem(s): see .dependency-cruiser.cjs and scripts/lint/layers.cjs`);
  process.exit(1);
}
console.log(`imports: ${result.summary.totalCruised} files, no cycles, every unit within its layer`);
