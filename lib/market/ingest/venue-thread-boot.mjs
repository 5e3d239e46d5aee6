// A VenueThread's entry when run from the sources (`npm run worker:dev`, tests, the benchmark): the
// thread loads TypeScript as the process that starts it does, which a new thread does not inherit
// from `--import tsx`. A built worker starts the compiled thread instead (scripts/server-bundle.mjs).
// The process's own preloads come after tsx (bench:freshness's replayed venues change the
// connectors the thread fetches with).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
// A path as given on the command line is the process's working directory's, not this file's.
for (const preload of workerData?.preloads ?? []) await import(/^\.{0,2}\//.test(preload) ? pathToFileURL(resolve(preload)).href : preload);
await import("./venue-thread-entry.ts");
