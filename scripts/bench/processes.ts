// Child processes of the benchmark, all registered so that every exit path (success, error, Ctrl-C)
// stops exactly the processes this run started, by pid.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const children = new Set<ChildProcess>();

export function startChild(command: string, args: string[], options: SpawnOptions): ChildProcess {
  const child = spawn(command, args, options);
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** Resolves with the exit code once the child has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

/** SIGTERM (SIGINT for the server, which flushes on it), then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited(child);
  clearTimeout(timer);
}

export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, "SIGTERM", 5_000)));
}

/** Synchronous last resort for process "exit": no waiting possible there. */
export function killAllChildrenNow(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

export function runToCompletion(command: string, args: string[], options: SpawnOptions): Promise<void> {
  const child = startChild(command, args, { stdio: "inherit", ...options });
  return exited(child).then((code) => {
    if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${code}`);
  });
}

/** Polls `url` until it answers 200; fails early if `child` exits first. */
export async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${last})`);
}

/**
 * A scratch directory for one run, removed with the run's children on every way out: `cleanup()`
 * when the run ends, a signal (then exit 130), or a bare exit (synchronously, as a last resort).
 */
export function scratchRun(prefix: string, what: string): { dir: string; cleanup: () => Promise<void> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  let cleanedUp = false;
  const cleanup = async () => {
    if (cleanedUp) return;
    cleanedUp = true;
    await stopAllChildren();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", () => {
    killAllChildrenNow();
    rmSync(dir, { recursive: true, force: true });
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: stopping the ${what}`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return { dir, cleanup };
}

/** Calls `onLine` with each complete line a child writes to stdout or stderr. */
export function onOutputLines(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    });
  }
}

/**
 * Runs a script's `main` and exits with its verdict: 0 when it passed, 1 when it failed or threw
 * (the error logged under `name`, after `onError`'s own lines). `cleanup` runs first either way.
 */
export function runMain(name: string, main: () => Promise<boolean>, cleanup: () => Promise<void>, onError?: () => void): void {
  main()
    .then(async (passed) => {
      await cleanup();
      process.exit(passed ? 0 : 1);
    })
    .catch(async (error) => {
      console.error(`[${name}] failed:`, error);
      onError?.();
      await cleanup();
      process.exit(1);
    });
}
