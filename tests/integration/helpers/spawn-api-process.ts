import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@/tests/support/free-port";

export interface ApiProcess {
  port: number;
  baseUrl: string;
  child: ChildProcess;
  /** Everything the process printed so far, for failure messages. */
  output: () => string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SCRIPT = path.join(HERE, "api-process.ts");

/** Starts `api-process.ts` on a free port and resolves once it prints "ready". */
export async function startApiProcess(env: NodeJS.ProcessEnv, timeoutMs = 90_000): Promise<ApiProcess> {
  const port = await freePort();
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT, String(port)], {
    cwd: path.resolve(HERE, "../../.."),
    env,
    // The IPC channel only tells the child when this process is gone (api-process.ts exits then).
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`api-process on ${port} not ready after ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`ready ${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`api-process on ${port} exited with ${code} before it was ready:\n${output}`));
    });
  });
  const stop = async (graceMs = 5_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exited;
    clearTimeout(timer);
  };
  try {
    await ready;
  } catch (error) {
    await stop(1_000);
    throw error;
  }
  return { port, baseUrl: `http://127.0.0.1:${port}`, child, output: () => output, stop };
}
