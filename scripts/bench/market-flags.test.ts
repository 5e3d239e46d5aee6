import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeFlagsOf } from "./bench-args";

const scripts = (JSON.parse(readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

describe("npm run bench:market", () => {
  it("runs with the node flags of the process whose rounds it measures, npm run worker", () => {
    expect(nodeFlagsOf(scripts, "bench:market")).toEqual(nodeFlagsOf(scripts, "worker"));
    // The worker's young generation is what its rounds' collector time depends on (operations.md).
    expect(nodeFlagsOf(scripts, "worker")).toContain("--max-semi-space-size=64");
  });

  it("reads a server's flags as npm start and npm run serve give them", () => {
    expect(nodeFlagsOf(scripts, "serve")).toEqual(nodeFlagsOf(scripts, "start"));
    expect(nodeFlagsOf(scripts, "serve")).toContain("--max-semi-space-size=4");
    expect(nodeFlagsOf({ x: "node --a --import tsx b.ts" }, "x")).toEqual(["--a"]);
    expect(() => nodeFlagsOf({ x: "next build" }, "x")).toThrow(/runs no node/);
  });
});
