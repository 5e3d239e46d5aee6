import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createConnection } from "node:net";
import { delimiter, join } from "node:path";
import { freePort } from "./free-port";

/** A throwaway redis-server for tests, on its own loopback port, with persistence off. */
export interface TestRedisServer {
  port: number;
  url: string;
  stop(): Promise<void>;
}

const INSTALL_HINT = "redis-server is required for these tests: apt-get install -y redis-server";

/** Starts redis-server and waits until it answers PING; fails (never skips) when it is missing. */
export async function startTestRedisServer(port?: number): Promise<TestRedisServer> {
  const binary = findRedisServer();
  if (binary === undefined) throw new Error(INSTALL_HINT);
  const chosenPort = port ?? (await freePort());
  // Not daemonized: the child is ours, stopped by its own pid.
  const child = spawn(
    binary,
    ["--port", String(chosenPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const spawnFailed = new Promise<never>((_, reject) =>
    child.once("error", (error) => reject(new Error(`${INSTALL_HINT} (${error.message})`))),
  );
  await Promise.race([waitForPing(chosenPort, 5_000), spawnFailed]);
  return {
    port: chosenPort,
    url: `redis://127.0.0.1:${chosenPort}`,
    stop: () => stopChild(child, exited),
  };
}

function findRedisServer(): string | undefined {
  const directories = [...(process.env.PATH ?? "").split(delimiter), "/usr/bin", "/usr/local/bin"];
  for (const directory of directories) {
    if (directory === "") continue;
    const candidate = join(directory, "redis-server");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

async function waitForPing(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ping(port)) return;
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" });
    let reply = "";
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(false));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) {
        socket.destroy();
        resolve(reply.startsWith("+PONG"));
      }
    });
    socket.on("connect", () => socket.write("PING\r\n"));
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  await exited;
}
