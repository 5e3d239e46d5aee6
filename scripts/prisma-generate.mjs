// Generates the Prisma client into lib/db/generated. `prisma generate` never runs the schema
// engine, but tries to download its binary unless this variable names some path; migrations use
// the engine compiled to WASM instead (lib/db/schema-engine.ts).
import { spawnSync } from "node:child_process";

const result = spawnSync("npx", ["prisma", "generate"], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || "/dev/null", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
});
process.exit(result.status ?? 1);
