// The StreamThread's entry when run from the sources (`npm run dev`, tests, the benchmark): the
// thread loads TypeScript as the process that starts it does, which a new thread does not inherit
// from `--import tsx`. A built server starts the compiled thread instead (scripts/server-bundle.mjs).
import { register } from "tsx/esm/api";

register();
await import("./stream-thread-entry.ts");
