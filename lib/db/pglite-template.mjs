// A new Postgres cluster (what initdb writes), made once per PGlite version and copied into every
// new embedded database instead of running initdb there. PGlite's initdb runs a second Postgres and
// the initdb program beside the first, each in its own WebAssembly memory, and hands the files over
// as a tarball, which makes a first start several times slower and leaves garbage in the C heap
// for good. Copying files costs neither; the server then opens the directory
// as it opens an existing one. In-memory databases (tests) load the same cluster as a tarball.
// Made by `npm start`'s build step (scripts/ensure-build.mjs) and by the test harness, never by a
// server; without it a new database is made by initdb.
// Plain JavaScript so that ensure-build.mjs, which runs before anything is compiled, can use it.
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Where the template for the installed PGlite lives: a cluster only opens in the Postgres that made it. */
export function pgliteTemplatePaths(root = process.cwd()) {
  const entry = createRequire(path.join(root, "package.json")).resolve("@electric-sql/pglite");
  const { version } = JSON.parse(readFileSync(path.join(path.dirname(entry), "..", "package.json"), "utf8"));
  const base = path.join(root, "node_modules", ".cache", "fods", `pglite-${version}`);
  return { dir: base, tarball: `${base}.tgz` };
}

/** The template as PGlite's `loadDataDir` takes it, or undefined when none was made. */
export function readPgliteTemplate(root = process.cwd()) {
  const { tarball } = pgliteTemplatePaths(root);
  // turbopackIgnore: a file made at run time under node_modules/.cache, not a source for the build to trace.
  return existsSync(/*turbopackIgnore: true*/ tarball) ? new Blob([readFileSync(/*turbopackIgnore: true*/ tarball)]) : undefined;
}

/**
 * Copies the template into `target` (a data directory's `pglite`, which must not exist yet or be
 * empty); false when there is no template. Copied beside it and renamed, so that a start killed
 * half-way leaves no directory that looks like a database.
 */
export function copyPgliteTemplate(target, root = process.cwd()) {
  const { dir } = pgliteTemplatePaths(root);
  if (!existsSync(path.join(dir, "PG_VERSION"))) return false;
  const partial = `${target}.creating-${process.pid}`;
  try {
    rmSync(partial, { recursive: true, force: true });
    cpSync(dir, partial, { recursive: true });
    renameSync(partial, target);
    return true;
  } catch {
    // Unreadable, or something in the way: PGlite decides, as without a template.
    rmSync(partial, { recursive: true, force: true });
    return false;
  }
}

/**
 * Makes the template unless it exists. Both forms are written under temporary names and renamed,
 * so that processes making it at once (test workers) never use a partial one.
 */
export async function makePgliteTemplate(root = process.cwd()) {
  const { dir, tarball } = pgliteTemplatePaths(root);
  if (existsSync(path.join(dir, "PG_VERSION")) && existsSync(/*turbopackIgnore: true*/ tarball)) return;
  const { PGlite } = await import("@electric-sql/pglite");
  const making = `${dir}.making-${process.pid}`;
  rmSync(making, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  // Settings do not reach the files initdb writes; a small cache only keeps this step's peak down.
  const pglite = new PGlite(making, { startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"] });
  try {
    await pglite.waitReady;
    const dump = Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer());
    writeFileSync(`${tarball}.partial-${process.pid}`, dump);
  } finally {
    await pglite.close();
  }
  renameSync(`${tarball}.partial-${process.pid}`, tarball);
  withoutWriteForOthers(making);
  try {
    renameSync(making, dir);
  } catch {
    // Another process made it meanwhile.
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
}

/** PGlite writes its files 0666: whatever the template holds is copied into new databases, so only its owner may change it. */
function withoutWriteForOthers(entry) {
  const { mode } = statSync(entry);
  chmodSync(entry, mode & ~0o022);
  if (statSync(entry).isDirectory()) for (const name of readdirSync(entry)) withoutWriteForOthers(path.join(entry, name));
}
