// Loaded into the server by `npm run bench:freshness -- --cpu-prof=DIR` (node --import): the serving
// thread's V8 CPU profile over the bench's measured phase alone. `node --cpu-prof` writes its profile
// only at a clean exit, which a server stopped while overloaded does not reach, and covers start-up
// and the first round too. Here the first SIGUSR2 starts the profiler and the second writes
// DIR/server-<pid>.cpuprofile (read it with profile-summary.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { isMainThread } from "node:worker_threads";

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir && isMainThread) {
  const session = new Session();
  session.connect();
  let running = false;
  process.on("SIGUSR2", () => {
    void (async () => {
      if (!running) {
        running = true;
        await session.post("Profiler.enable");
        await session.post("Profiler.start");
        return;
      }
      const { profile } = await session.post("Profiler.stop");
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `server-${process.pid}.cpuprofile`), JSON.stringify(profile));
      running = false;
    })();
  });
}
