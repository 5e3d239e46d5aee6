// Where the machine's cores went between two moments, on Linux (/proc): this process's main
// thread, its other threads (the venue thread, V8's and libuv's helpers) and the local PostgreSQL's
// processes. A round's wall time on a two-core machine is bounded by all three together, not by its
// own thread alone: bench:market prints them per step. Elsewhere (no /proc) every figure is absent.
import { readdirSync, readFileSync } from "node:fs";
import { readCpuMs } from "./footprint-proc";

export type CoreUser = "main thread" | "other threads" | "postgres";

/** A task's CPU time in ms; 0 when it cannot be read (the task ended). */
function cpuMs(statPath: string): number {
  try {
    return readCpuMs(statPath);
  } catch {
    return 0;
  }
}

function comm(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** CPU milliseconds used so far by each user, or undefined without /proc. */
export function coreTimes(): Map<CoreUser, number> | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${process.pid}/task`);
  } catch {
    return undefined;
  }
  const times = new Map<CoreUser, number>([
    ["main thread", 0],
    ["other threads", 0],
    ["postgres", 0],
  ]);
  const add = (user: CoreUser, ms: number) => times.set(user, times.get(user)! + ms);
  for (const task of tasks) add(task === String(process.pid) ? "main thread" : "other threads", cpuMs(`/proc/${process.pid}/task/${task}/stat`));
  for (const pid of readdirSync("/proc")) {
    if (isPostgres(pid)) add("postgres", cpuMs(`/proc/${pid}/stat`));
  }
  return times;
}

/**
 * Whether a process is the database's, its name read once: reading every process's name at each
 * of a round's steps cost the round's thread ~10 ms a round (bench:market --cpu-prof), inside what
 * it measures. A process keeps its name, and a number is not reused within a run.
 */
function isPostgres(pid: string): boolean {
  let known = postgresByPid.get(pid);
  if (known === undefined) {
    if (!/^\d+$/.test(pid)) return false;
    known = comm(`/proc/${pid}/comm`) === "postgres";
    postgresByPid.set(pid, known);
  }
  return known;
}

const postgresByPid = new Map<string, boolean>();

/** `after` less `before`, per user; a database process that ended meanwhile takes its time with it, so never below 0. */
export function coreTimeBetween(before: Map<CoreUser, number>, after: Map<CoreUser, number>): Map<CoreUser, number> {
  return new Map([...after].map(([user, ms]) => [user, Math.max(0, ms - (before.get(user) ?? 0))]));
}
