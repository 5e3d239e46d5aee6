import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { tarGz, type ArchiveEntry } from "./tar-gz";

/** One official client, as /docs offers it for download and /downloads/<file> serves it. */
export interface ClientDownload {
  language: "typescript" | "python";
  file: string;
  version: string;
}

const ROOT = path.join(process.cwd(), "clients");
// Fixed, so the same client files always give the same archive bytes (and the same checksum).
const ARCHIVE_TIME = new Date("2026-01-01T00:00:00Z");

let downloads: Promise<ClientDownload[]> | undefined;

/**
 * The downloads on offer, named the way npm (`<name>-<version>.tgz`) and pip (sdist) name theirs.
 * Read once per process: the versions only change with a deploy, and /docs and every download ask.
 */
export function clientDownloads(): Promise<ClientDownload[]> {
  if (!downloads) {
    downloads = readDownloads();
    downloads.catch(() => (downloads = undefined)); // a broken checkout is reported again, not cached
  }
  return downloads;
}

async function readDownloads(): Promise<ClientDownload[]> {
  const packageJson = JSON.parse(await readFile(path.join(ROOT, "typescript/package.json"), "utf8")) as { version: string };
  const pyproject = await readFile(path.join(ROOT, "python/pyproject.toml"), "utf8");
  const pythonVersion = /^version\s*=\s*"([^"]+)"/m.exec(pyproject)?.[1];
  if (!pythonVersion) throw new Error("clients/python/pyproject.toml has no version");
  return [
    { language: "typescript", file: `funding-data-client-${packageJson.version}.tgz`, version: packageJson.version },
    { language: "python", file: `funding_data-${pythonVersion}.tar.gz`, version: pythonVersion },
  ];
}

const built = new Map<string, Promise<Buffer>>();

/** The archive named `file`, built once per process from the files under clients/; null for any other name. */
export async function clientArchive(file: string): Promise<Buffer | null> {
  const download = (await clientDownloads()).find((d) => d.file === file);
  if (!download) return null;
  let archive = built.get(file);
  if (!archive) {
    archive = buildArchive(download);
    built.set(file, archive);
    archive.catch(() => built.delete(file)); // a failed build (client not compiled yet) is retried next time
  }
  return archive;
}

async function buildArchive(download: ClientDownload): Promise<Buffer> {
  return tarGz(download.language === "typescript" ? await typescriptEntries() : await pythonEntries(download.version), ARCHIVE_TIME);
}

/** An npm package tarball: everything under `package/`, the compiled `dist/` and no sources. */
async function typescriptEntries(): Promise<ArchiveEntry[]> {
  const dir = path.join(ROOT, "typescript");
  if (!existsSync(path.join(dir, "dist/index.js"))) {
    throw new Error("clients/typescript/dist is missing: run `node scripts/ensure-build.mjs` (it compiles the client)");
  }
  const dist = await filesUnder(path.join(dir, "dist"));
  return Promise.all(
    ["package.json", "README.md", ...dist.map((f) => `dist/${f}`)].map(async (f) => ({
      path: `package/${f}`,
      content: await readFile(path.join(dir, f)),
    })),
  );
}

/** A Python source distribution: pip builds and installs it with setuptools, as it would one from PyPI. */
async function pythonEntries(version: string): Promise<ArchiveEntry[]> {
  const dir = path.join(ROOT, "python");
  const top = `funding_data-${version}`;
  const modules = (await readdir(path.join(dir, "funding_data"))).filter((f) => f.endsWith(".py")).sort();
  const pkgInfo = ["Metadata-Version: 2.1", "Name: funding-data", `Version: ${version}`, "Requires-Python: >=3.9", ""].join("\n");
  const files = await Promise.all(
    ["pyproject.toml", "README.md", ...modules.map((m) => `funding_data/${m}`)].map(async (f) => ({
      path: `${top}/${f}`,
      content: await readFile(path.join(dir, f)),
    })),
  );
  return [{ path: `${top}/PKG-INFO`, content: pkgInfo }, ...files];
}

/** Relative paths of the files under `dir`, sorted, so archives list them in a stable order. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await filesUnder(dir, relative)));
    else if (entry.isFile()) found.push(relative);
  }
  return found.sort();
}
