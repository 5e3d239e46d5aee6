import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "../../tests/support/free-port";

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** The operator's token for /healthz's details, as playwright.config.ts gives the main server. */
export const HEALTH_DETAILS_TOKEN = "e2e-health-details";
export const HEALTH_DETAILS = { Authorization: `Bearer ${HEALTH_DETAILS_TOKEN}` };

/** Starts another `server.ts` (the production build) with its own port and the given data dir, and `env` added. */
export async function startServer(dataDir: string, port?: number, env: Record<string, string> = {}): Promise<ServerProcess> {
  const chosenPort = port ?? (await freePort());
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    // INGEST_DISABLED: no market rounds, so tests never reach the exchanges' networks.
    env: {
      ...process.env,
      PORT: String(chosenPort),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      INGEST_DISABLED: "1",
      HEALTH_DETAILS_TOKEN,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, port: chosenPort, output: () => output, exited };
}

/** Resolves when GET /healthz answers 200, or rejects after `timeoutMs`. */
export async function waitUntilHealthy(port: number, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(`http://localhost:${port}/healthz`);
      if (response.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server on port ${port} not healthy after ${timeoutMs} ms`);
}
