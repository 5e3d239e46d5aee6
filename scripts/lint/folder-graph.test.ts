import { describe, expect, it } from "vitest";
import { cycles, folderGraph, formatGraph, unitsWithoutLayer } from "./folder-graph.mjs";
import layers from "./layers.cjs";

// A module as dependency-cruiser's JSON output has it, with the files it imports.
const cruised = (source: string, ...imports: string[]) => ({
  source,
  dependencies: imports.map((resolved) => ({ resolved, coreModule: false, couldNotResolve: false })),
});

describe("the folder graph", () => {
  it("collapses files to units: lib folders, lib/market parts, loose lib files, tests folders, top folders", () => {
    expect(layers.unitOf("lib/keys/account-keys.ts")).toBe("lib/keys");
    expect(layers.unitOf("lib/keys/permissions.ts")).toBe("lib/keys/permissions.ts");
    expect(layers.unitOf("lib/market/types.ts")).toBe("lib/market");
    expect(layers.unitOf("lib/market/opportunities/encoding/pack-set.ts")).toBe("lib/market/opportunities");
    expect(layers.unitOf("lib/errors.ts")).toBe("lib/errors.ts");
    expect(layers.unitOf("tests/support/market/make-leg.ts")).toBe("tests/support");
    expect(layers.unitOf("app/account/page.tsx")).toBe("app");
    expect(layers.unitOf("server.ts")).toBe("server.ts");
  });

  it("finds two folders that import each other even when no file cycle exists", () => {
    const graph = folderGraph([
      cruised("lib/alerts/alert-rules.ts", "lib/webhooks/webhook-endpoints.ts"),
      cruised("lib/webhooks/start-webhooks.ts", "lib/alerts/evaluate-alerts.ts"),
      cruised("lib/webhooks/webhook-endpoints.ts"),
      cruised("lib/alerts/evaluate-alerts.ts"),
    ]);
    expect(cycles(graph)).toEqual([["lib/alerts", "lib/webhooks"]]);
  });

  it("finds a longer cycle once, and none in a graph that only goes one way", () => {
    const ring = folderGraph([cruised("lib/a/x.ts", "lib/b/x.ts"), cruised("lib/b/x.ts", "lib/c/x.ts"), cruised("lib/c/x.ts", "lib/a/y.ts"), cruised("lib/a/y.ts")]);
    expect(cycles(ring)).toEqual([["lib/a", "lib/b", "lib/c"]]);
    const oneWay = folderGraph([cruised("lib/a/x.ts", "lib/b/x.ts", "lib/c/x.ts"), cruised("lib/b/x.ts", "lib/c/x.ts"), cruised("lib/c/x.ts")]);
    expect(cycles(oneWay)).toEqual([]);
  });

  it("leaves test files and packages out: a test reaching tests/support is not a cycle", () => {
    const graph = folderGraph([
      cruised("lib/keys/format.test.ts", "tests/support/test-database.ts", "lib/keys/format.ts"),
      cruised("tests/support/test-database.ts", "lib/keys/format.ts"),
      cruised("lib/keys/format.ts", "../../main/node_modules/zod/index.cjs"),
      { source: "../../main/node_modules/zod/index.cjs", dependencies: [] },
    ]);
    expect(cycles(graph)).toEqual([]);
    expect(formatGraph(graph)).toBe("lib/keys -> (nothing)\ntests/support -> lib/keys");
  });

  it("names the units the layer table leaves out", () => {
    const graph = folderGraph([cruised("lib/keys/a.ts", "lib/brand-new/b.ts"), cruised("lib/brand-new/b.ts")]);
    expect(unitsWithoutLayer(graph, layers.LAYER_OF)).toEqual(["lib/brand-new"]);
  });
});

describe("the layer table", () => {
  it("has every unit of today's tree in exactly one layer", () => {
    const units = layers.LAYERS.flatMap((layer: { units: string[] }) => layer.units);
    expect(new Set(units).size).toBe(units.length);
  });

  it("matches a folder's files but not a file named as a unit of its own, nor lib/market's parts", () => {
    const keys = new RegExp(layers.unitPattern("lib/keys"));
    expect(keys.test("lib/keys/account-keys.ts")).toBe(true);
    expect(keys.test("lib/keys/permissions.ts")).toBe(false);
    const market = new RegExp(layers.unitPattern("lib/market"));
    expect(market.test("lib/market/market.ts")).toBe(true);
    expect(market.test("lib/market/books/market-depth.ts")).toBe(false);
  });
});
