// A VenueThread's entry when run from the sources (`npm run worker:dev`, tests, the benchmark): the
// thread loads TypeScript as the process that starts it does, which a new thread does not inherit
// from `--import tsx`. A built worker starts the compiled thread instead (scripts/server-bundle.mjs).
import { register } from "tsx/esm/api";

register();
await import("./venue-thread-entry.ts");
