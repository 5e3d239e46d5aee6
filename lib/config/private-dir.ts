import fs from "node:fs";
import path from "node:path";

/** Owner only: the embedded database, the generated NEXTAUTH_SECRET and the lock live here. */
export const PRIVATE_DIR_MODE = 0o700;
const GROUP_AND_OTHERS = 0o077;

/**
 * Creates `dir` (and missing parents) owner-only, and tightens it when it already exists with a
 * looser mode (a data directory from before this rule, or one made by hand with the default umask).
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if ((fs.statSync(dir).mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Takes group and others' permissions off everything under `dir` (files and directories, not
 * following links). Returns how many entries were changed. Run once at start: the database
 * files of an existing install were written world-readable before.
 */
export function tightenTree(dir: string): number {
  let changed = 0;
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & GROUP_AND_OTHERS) {
      fs.chmodSync(entry, stat.mode & 0o777 & ~GROUP_AND_OTHERS);
      changed++;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return changed;
}
