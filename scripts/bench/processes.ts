// Child processes of the benchmark, all registered so that every exit path (success, error, Ctrl-C)
// stops exactly the processes this run started, by pid.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";

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
