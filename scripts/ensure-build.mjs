// Runs `next build` when there is no production build or the sources changed since the last one,
// then compiles server.ts, the worker and its venue thread (scripts/server-bundle.mjs) when a bundle
// is missing or older than the sources, so `npm start` and `npm run worker` work on a fresh clone
// with no other step.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { makePgliteTemplate } from "../lib/db/pglite-template.mjs";
import { BUNDLE_DIR, BUNDLE_ENTRIES, buildServerBundle } from "./server-bundle.mjs";

const BUILD_ID = ".next/BUILD_ID";
const SOURCES = ["app", "lib", "prisma", "proxy.ts", "next.config.mjs", "package-lock.json", "tsconfig.json"];

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync("lib/db/generated/client.ts")) run("node", ["scripts/prisma-generate.mjs"]);

// The TypeScript client is compiled too: /downloads serves it as an npm package (lib/clients/).
const CLIENT_DIST = "clients/typescript/dist/index.js";
const clientBuilt = existsSync(CLIENT_DIST) ? statSync(CLIENT_DIST).mtimeMs : 0;
if (newestMtime("clients/typescript/src") > clientBuilt) run("npx", ["tsc", "-p", "clients/typescript"]);

const built = existsSync(BUILD_ID) ? statSync(BUILD_ID).mtimeMs : 0;
const changed = SOURCES.some((source) => newestMtime(source) > built);
if (changed) {
  console.log(built ? "Sources changed since the last build: rebuilding." : "No production build yet: building.");
  run("npx", ["next", "build"]);
}

// After `next build`, which empties .next. The bundles also depend on server.ts and the worker's
// entry, Next's build does not.
const bundles = Object.keys(BUNDLE_ENTRIES).map((name) => path.join(BUNDLE_DIR, `${name}.mjs`));
const bundled = Math.min(...bundles.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
if ([...SOURCES, "server.ts", "scripts/worker.ts", "scripts/server-bundle.mjs"].some((source) => newestMtime(source) > bundled)) {
  await buildServerBundle();
}

// A new embedded database loads this instead of running initdb (at most once per PGlite version).
await makePgliteTemplate();
