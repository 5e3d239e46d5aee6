// The import graph collapsed from files to units (folders, see scripts/lint/layers.cjs), its cycles
// and the units the layer table leaves out. Pure functions over dependency-cruiser's JSON output;
// scripts/lint/check-dependencies.mjs runs them.
import layers from "./layers.cjs";

const { unitOf } = layers;

/** Test files are leaves (nothing imports them) and may reach into tests/support, so they stay out
 * of the folder graph: counted in, lib/keys/x.test.ts → tests/support → lib/keys would read as a cycle. */
export const isTestFile = (file) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(file);

/** Whether a module in the JSON is project source (not a package, a Node built-in or a generated file). */
export const isProjectSource = (module) =>
  !module.coreModule && !module.couldNotResolve && !/(^|\/)node_modules\//.test(module.source) && !module.source.startsWith("../");

/** unit → the set of other units its (non-test) files import. Every unit with a non-test file is a key. */
export function folderGraph(modules) {
  const graph = new Map();
  for (const cruised of modules) {
    if (!isProjectSource(cruised) || isTestFile(cruised.source)) continue;
    const from = unitOf(cruised.source);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const dependency of cruised.dependencies ?? []) {
      if (dependency.coreModule || dependency.couldNotResolve || !isProjectSource({ source: dependency.resolved })) continue;
      const to = unitOf(dependency.resolved);
      if (to !== from) graph.get(from).add(to);
    }
  }
  return graph;
}

/** The cycles of a graph: its strongly connected components of two or more nodes (Tarjan), each sorted. */
export function cycles(graph) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indices.get(next)));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** "unit -> a, b" lines, sorted, for reading and diffing. */
export const formatGraph = (graph) =>
  [...graph.keys()]
    .sort()
    .map((unit) => `${unit} -> ${[...graph.get(unit)].sort().join(", ") || "(nothing)"}`)
    .join("\n");

/** Units that have files but no row in the layer table. */
export const unitsWithoutLayer = (graph, layerOf) => [...graph.keys()].filter((unit) => layerOf[unit] === undefined).sort();
