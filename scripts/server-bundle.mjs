// Compiles server.ts and the lib/ code it imports into one ES module, SERVER_BUNDLE, which
// `npm start` runs with plain node. Run by scripts/ensure-build.mjs after the Next.js build.
// Loading the TypeScript at run time instead (`node --import tsx server.ts`) keeps tsx's loader
// thread, its esbuild service processes and a source map of every file in memory for the life of
// the server, costing resident memory and start-up time (docs/operations.md, "Memory"). Packages
// stay in node_modules (`packages: "external"`), exactly as Next's server bundle leaves its
// serverExternalPackages there.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const SERVER_BUNDLE = ".next/fods/server.mjs";

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

export async function buildServerBundle(root = process.cwd(), outFile = SERVER_BUNDLE) {
  const esbuild = await import("esbuild");
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["server.ts"],
    outfile: outFile,
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
    plugins: [sourceUrlPlugin(root, outFile)],
  });
}

// `node scripts/server-bundle.mjs` (part of `npm run build`) builds it on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await buildServerBundle();
