import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tarGz } from "./tar-gz";

const dir = mkdtempSync(path.join(os.tmpdir(), "tar-gz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tarGz", () => {
  const mtime = new Date("2026-01-01T00:00:00Z");
  const entries = [
    { path: "package/package.json", content: '{"name":"x"}\n' },
    { path: "package/dist/index.js", content: Buffer.alloc(1500, "a") }, // spans blocks, not a multiple of 512
    { path: "package/README.md", content: "é\n" }, // multi-byte: sizes are bytes, not characters
  ];

  it("writes an archive that the system's tar lists and extracts byte for byte", () => {
    const file = path.join(dir, "a.tgz");
    writeFileSync(file, tarGz(entries, mtime));
    const listing = execFileSync("tar", ["-tvzf", file], { encoding: "utf8" });
    expect(listing.trim().split("\n").map((line) => line.split(/\s+/).at(-1))).toEqual(entries.map((e) => e.path));
    expect(listing).toContain("2026-01-01");
    execFileSync("tar", ["-xzf", file, "-C", dir]);
    for (const entry of entries) expect(readFileSync(path.join(dir, entry.path))).toEqual(Buffer.from(entry.content));
  });

  it("gives the same bytes for the same files", () => {
    expect(tarGz(entries, mtime).equals(tarGz(entries, mtime))).toBe(true);
  });

  it("refuses a path the ustar name field cannot hold", () => {
    expect(() => tarGz([{ path: "x".repeat(101), content: "" }], mtime)).toThrow(/longer than 100 bytes/);
  });
});
