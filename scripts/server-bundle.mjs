// Compiles the long-running processes' entries and the lib/ code they import into ES modules that
// plain node runs: server.ts (SERVER_BUNDLE, what `npm start` runs), the worker (`npm run worker`),
// the worker's second thread (VenueThread) and the stream thread (StreamThread), which otherwise
// would register tsx inside the thread. Run by scripts/ensure-build.mjs after the Next.js build. Loading the TypeScript at run
// time instead (`node --import tsx server.ts`) keeps tsx's loader thread, its esbuild service
// processes and a source map of every file in memory for the life of the process: about 130 MB
// more resident memory and two seconds more start-up (docs/operations.md, "Memory"). Packages stay
// in node_modules (`packages: "external"`), exactly as Next's server bundle leaves its
// serverExternalPackages there.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const BUNDLE_DIR = ".next/fods";
export const SERVER_BUNDLE = `${BUNDLE_DIR}/server.mjs`;
export const WORKER_BUNDLE = `${BUNDLE_DIR}/worker.mjs`;

/** The source a VenueThread runs in its thread, compiled to `venue-thread.mjs`. */
export const VENUE_THREAD_ENTRY = "lib/market/ingest/venue-thread-entry.ts";
const VENUE_THREAD_SOURCE = "lib/market/ingest/venue-thread.ts";
/** The source a StreamThread runs in its thread, compiled to `stream-thread.mjs`. */
export const STREAM_THREAD_ENTRY = "lib/market/ingest/stream-thread-entry.ts";
const STREAM_THREAD_SOURCE = "lib/market/ingest/stream-thread.ts";

/** Each bundle (a file in the bundle directory, without `.mjs`) and the source it is compiled from. */
export const BUNDLE_ENTRIES = { server: "server.ts", worker: "scripts/worker.ts", "venue-thread": VENUE_THREAD_ENTRY, "stream-thread": STREAM_THREAD_ENTRY };

/**
 * A few modules find files next to their source (`new URL("./venue-responses.json", import.meta.url)`,
 * Prisma's generated client sets `__dirname` from it). In the bundle `import.meta.url` names the
 * bundle, so each use is replaced by the URL of the module's own source file, computed from the
 * bundle's location at run time: the tree can move without a rebuild.
 */
export function withSourceUrl(source, fileFromBundle) {
  const posix = fileFromBundle.split(path.sep).join("/");
  return source.replaceAll("import.meta.url", `new URL(${JSON.stringify(posix)}, import.meta.url).href`);
}

/** The esbuild plugin applying withSourceUrl to the project's own TypeScript files. */
export function sourceUrlPlugin(root, outFile) {
  const bundleDir = path.dirname(path.resolve(root, outFile));
  return {
    name: "source-import-meta-url",
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|tsx)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path, "utf8");
        if (!source.includes("import.meta.url")) return undefined;
        return { contents: withSourceUrl(source, path.relative(bundleDir, args.path)), loader: args.path.endsWith("x") ? "tsx" : "ts" };
      });
    },
  };
}

/** Builds every bundle of BUNDLE_ENTRIES into `outDir`. */
export async function buildServerBundle(root = process.cwd(), outDir = BUNDLE_DIR) {
  const esbuild = await import("esbuild");
  const bundleDir = path.resolve(root, outDir);
  // A VenueThread (StreamThread) compiled into a bundle starts the compiled thread (venue-thread.ts,
  // stream-thread.ts read these), named from its source, whose URL stands for import.meta.url in
  // the bundle (sourceUrlPlugin).
  const fromSource = (source, bundle) => path.relative(path.dirname(path.resolve(root, source)), path.join(bundleDir, bundle)).split(path.sep).join("/");
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.entries(BUNDLE_ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    define: {
      VENUE_THREAD_BUNDLE: JSON.stringify(fromSource(VENUE_THREAD_SOURCE, "venue-thread.mjs")),
      STREAM_THREAD_BUNDLE: JSON.stringify(fromSource(STREAM_THREAD_SOURCE, "stream-thread.mjs")),
    },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: "tsconfig.json",
    // Not loaded by default (node --enable-source-maps would keep every map in memory, which is
    // what this bundle avoids); there for reading a stack trace against the sources.
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [sourceUrlPlugin(root, path.join(outDir, "server.mjs"))],
  });
}

// `node scripts/server-bundle.mjs` (part of `npm run build`) builds it on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await buildServerBundle();
