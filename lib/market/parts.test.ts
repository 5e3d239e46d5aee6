import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");
const MARKET = join(ROOT, "lib/market");

/** What each lower part of lib/market may import within lib/market (README "Parts"). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  model: [],
  venues: ["model"],
  books: ["model", "venues"],
  persistence: ["model"],
  carry: ["model", "venues", "opportunities", "persistence"],
  sample: ["model", "venues", "books", "carry"],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every module a runtime file imports, as a path from the repository root (packages left out). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from\s*|import\(\s*|^import\s*)"([^"]+)"/gm)].map((m) => m[1]!);
  return specifiers.flatMap((spec) => {
    if (spec.startsWith("@/")) return [normalize(spec.slice(2))];
    if (spec.startsWith(".")) return [relative(ROOT, join(dirname(file), spec))];
    return [];
  });
}

/** The part of lib/market a path is in: its first folder, or "root" for the loose files. */
function partOf(path: string): string {
  const rest = path.slice("lib/market/".length).split("/");
  return rest.length > 1 ? rest[0]! : "root";
}

describe("lib/market's parts", () => {
  const files = sources(MARKET).map((file) => ({ file: relative(ROOT, file), imports: importsOf(file) }));

  it("import only downward: model nothing, venues the model, books and the sample what lies below them", () => {
    const upward = files.flatMap(({ file, imports }) => {
      const allowed = MAY_IMPORT[partOf(file)];
      if (!allowed) return [];
      return imports
        .filter((target) => target.startsWith("lib/market/"))
        .filter((target) => partOf(target) !== partOf(file) && !allowed.includes(partOf(target)))
        .map((target) => `${file} -> ${target}`);
    });
    expect(upward).toEqual([]);
  });

  it("never import the events layer (it registers a RoundEvents port instead) or test code", () => {
    const offending = files.flatMap(({ file, imports }) =>
      imports.filter((target) => /^(lib\/events|tests|e2e)\//.test(target)).map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("sees the imports it checks", () => {
    const model = files.find(({ file }) => file === "lib/market/model/types.ts");
    expect(model?.imports).toContain("lib/market/model/price-spread");
    expect(files.length).toBeGreaterThan(80);
  });
});
