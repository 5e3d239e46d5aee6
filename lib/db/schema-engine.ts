import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import type { SchemaEngine } from "@prisma/schema-engine-wasm";
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";

export type { SchemaEngine };

type Glue = typeof import("@prisma/schema-engine-wasm/schema_engine_bg") & {
  __wbg_set_wasm(exports: WebAssembly.Exports): void;
};

let engineGlue: Promise<Glue> | undefined;

/**
 * Prisma's schema engine compiled to WebAssembly: migrations without downloading a native
 * binary (this machine, and CI, have no internet beyond the package registries).
 */
function loadEngine(): Promise<Glue> {
  engineGlue ??= (async () => {
    // Loaded by Node at run time, not bundled: the package is ESM glue around a .wasm file.
    const glue = (await import(
      /* turbopackIgnore: true */ /* webpackIgnore: true */ "@prisma/schema-engine-wasm/schema_engine_bg"
    )) as Glue;
    const require = createRequire(path.join(process.cwd(), "package.json"));
    const wasmPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg").replace(/\.js$/, ".wasm");
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      "./schema_engine_bg.js": glue as unknown as WebAssembly.ModuleImports,
    });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return glue;
  })();
  return engineGlue;
}

export interface SchemaFile {
  path: string;
  content: string;
}

/** Starts a schema engine that talks to the database behind `adapterFactory`. */
export async function startSchemaEngine(
  schema: SchemaFile,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  log: (line: string) => void = () => {},
): Promise<SchemaEngine> {
  const glue = await loadEngine();
  return glue.SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    log,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
}
