import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const scripts = (JSON.parse(readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;

/** The node flags a package.json script gives before `--import tsx`. */
function nodeFlags(script: string): string[] {
  const words = script.split(" ");
  expect(words[0]).toBe("node");
  return words.slice(1, words.indexOf("--import"));
}

describe("npm run bench:market", () => {
  it("runs with the node flags of the process whose rounds it measures, npm run worker", () => {
    expect(nodeFlags(scripts["bench:market"]!)).toEqual(nodeFlags(scripts.worker!));
    // The worker's young generation is what its rounds' collector time depends on (operations.md).
    expect(nodeFlags(scripts.worker!)).toContain("--max-semi-space-size=64");
  });
});
