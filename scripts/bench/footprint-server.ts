// One production server for `npm run bench:footprint`, started exactly as a user starts it
// (`npm start` in a directory): its output kept line by line, the time from spawning npm to the
// server's "ready" line, the pid of the server itself (npm and sh stay as its parents, and count in
// the tree's memory), memory samples, and a clean stop by SIGINT to the server's pid.
import type { ChildProcess } from "node:child_process";
import { parseMemoryReport, type MemoryParts } from "@/lib/process/memory-report";
import { commandLine, processTree, readStatus, readWasmMemories, treePss, type ProcStatus, type WasmMemory } from "./footprint-proc";
import { exited, onOutputLines, startChild, stopChild } from "./processes";

export interface MemorySample {
  status: ProcStatus;
  /** PSS of npm, its shell and the server together: what `npm start` costs the machine. */
  treePss: number;
  wasm: WasmMemory[];
  /** The server's own account of its memory (SIGUSR2), when it answered in time. */
  parts: MemoryParts | null;
}

export interface FootprintServer {
  url: string;
  pid: number;
  /** From spawning `npm start` to the server's ready line. */
  readyMs: number;
  /** Whether `npm start` built the app first (no build, or sources newer than it). */
  built: boolean;
  lines: string[];
  waitForLine(pattern: RegExp, timeoutMs: number, from?: number): Promise<string>;
  sample(): Promise<MemorySample>;
  stop(): Promise<void>;
}

const SERVER_COMMAND = /\bserver\.(ts|m?js)\b/;

function npmCommand(): { command: string; args: string[] } {
  // Under `npm run`, npm says where its own CLI is; otherwise the one on PATH.
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.js$/.test(cli) ? { command: process.execPath, args: [cli, "start"] } : { command: "npm", args: ["start"] };
}

function findServerPid(npmPid: number): number | undefined {
  for (const pid of processTree(npmPid).slice(1)) {
    try {
      const command = commandLine(pid);
      if (SERVER_COMMAND.test(command) && !/ensure-build|esbuild/.test(command)) return pid;
    } catch {
      // exited meanwhile
    }
  }
  return undefined;
}

export async function startFootprintServer(options: { cwd: string; env: NodeJS.ProcessEnv; port: number; timeoutMs: number }): Promise<FootprintServer> {
  const { command, args } = npmCommand();
  const started = performance.now();
  const child: ChildProcess = startChild(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  onOutputLines(child, (line) => {
    lines.push(line);
    for (const wake of waiters) wake();
  });

  const waitForLine = (pattern: RegExp, timeoutMs: number, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = lines.slice(from).find((l) => pattern.test(l));
        if (line !== undefined) return finish(() => resolve(line));
        if (child.exitCode !== null || child.signalCode !== null) {
          finish(() => reject(new Error(`npm start exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${lines.slice(-30).join("\n")}`)));
        }
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${lines.slice(-30).join("\n")}`))), timeoutMs);
      const onExit = () => check();
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        child.off("exit", onExit);
        settle();
      };
      waiters.add(check);
      child.on("exit", onExit);
      check();
    });

  await waitForLine(/ready on http/, options.timeoutMs);
  const readyMs = performance.now() - started;
  const pid = findServerPid(child.pid!);
  if (pid === undefined) throw new Error("the server's process was not found under npm start");

  const sample = async (): Promise<MemorySample> => {
    const status = readStatus(pid);
    const pss = treePss(child.pid!);
    const wasm = readWasmMemories(pid);
    const from = lines.length;
    process.kill(pid, "SIGUSR2");
    const line = await waitForLine(/\[memory\] /, 5_000, from).catch(() => null);
    return { status, treePss: pss, wasm, parts: line ? parseMemoryReport(line) : null };
  };

  return {
    url: `http://127.0.0.1:${options.port}`,
    pid,
    readyMs,
    built: lines.some((l) => /building|rebuilding/i.test(l)),
    lines,
    waitForLine,
    sample,
    async stop() {
      // The server flushes and closes its database on SIGINT; npm then exits with it.
      process.kill(pid, "SIGINT");
      const timer = setTimeout(() => {
        for (const target of [pid, child.pid!]) {
          try {
            process.kill(target, "SIGKILL");
          } catch {
            // gone already
          }
        }
      }, 30_000);
      await exited(child);
      clearTimeout(timer);
      await stopChild(child);
    },
  };
}
