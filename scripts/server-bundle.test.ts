import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildServerBundle, withSourceUrl } from "./server-bundle.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tmp = mkdtempSync(path.join(os.tmpdir(), "fods-bundle-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the server bundle", () => {
  it("points each module's import.meta.url at its own source, relative to the bundle", () => {
    const source = 'const FILE = new URL("./data.json", import.meta.url);';
    expect(withSourceUrl(source, "../../lib/x/y.ts")).toBe(
      'const FILE = new URL("./data.json", new URL("../../lib/x/y.ts", import.meta.url).href);',
    );
  });

  it("compiles server.ts with lib/ inside and packages outside, and every file it finds by URL exists", async () => {
    const outFile = path.join(tmp, "nested", "server.mjs");
    await buildServerBundle(ROOT, outFile);
    const bundle = readFileSync(outFile, "utf8");
    expect(bundle).toContain('from "next"');
    expect(bundle).not.toMatch(/from "@\/lib\//);
    // Each use of import.meta.url names a source file, and those files are where the bundle says.
    const uses = [...bundle.matchAll(/new URL\("([^"]+)", import\.meta\.url\)\.href/g)].map((m) => m[1]!);
    expect(uses.length).toBeGreaterThan(0);
    expect(bundle.match(/import\.meta\.url/g)).toHaveLength(uses.length);
    for (const use of uses) expect(existsSync(fileURLToPath(new URL(use, pathToFileURL(outFile)))), use).toBe(true);
  }, 60_000);
});
