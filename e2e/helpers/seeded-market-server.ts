import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test as base } from "@playwright/test";
import { startServer, waitUntilHealthy } from "./server-process";

export interface SeededMarketServer {
  base: string;
  stop(): Promise<void>;
}

/**
 * The seeded server's ingestion interval (it runs no rounds: the interval only sets the staleness
 * threshold, three of them, 15 minutes): long enough that the live round, seeded a minute old, stays
 * fresh through a slow run, while the leg the seed dates 19 minutes back is stale from the start.
 */
export const SEEDED_INGEST_INTERVAL_MS = 5 * 60_000;

/**
 * A production server on its own data directory, seeded with a week of ingestion rounds through the
 * real pipeline (e2e/helpers/seed-screener-market.ts), for specs that need market history.
 */
export async function startSeededMarketServer(label: string): Promise<SeededMarketServer> {
  const { server } = await seedAndStart(label, "e2e/helpers/seed-screener-market.ts", { INGEST_INTERVAL_MS: String(SEEDED_INGEST_INTERVAL_MS) });
  return server;
}

/** The pair e2e/helpers/seed-sample-market.ts gave two interval changes, as it prints it. */
export interface SamplePair {
  id: string;
  /** The venue of the leg whose interval changed. */
  leg: string;
  shortened: string;
  restored: string;
}

export interface SampleMarketServer extends SeededMarketServer {
  pair: SamplePair;
}

/**
 * A production server on its own data directory holding the offline sample as a fresh install
 * publishes it (e2e/helpers/seed-sample-market.ts), and the pair that seeding gave interval changes.
 */
export async function startSampleMarketServer(label: string): Promise<SampleMarketServer> {
  const { server, stdout } = await seedAndStart(label, "e2e/helpers/seed-sample-market.ts");
  return { ...server, pair: JSON.parse(stdout.trim().split("\n").at(-1)!) as SamplePair };
}

/** Runs `seedScript` on a new data directory, then starts a server on it and waits until it is healthy; `stop` removes the directory. */
async function seedAndStart(label: string, seedScript: string, env: Record<string, string> = {}): Promise<{ server: SeededMarketServer; stdout: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `fods-${label}-`));
  const seeded = spawnSync(process.execPath, ["--import", "tsx", seedScript, dataDir], { encoding: "utf8" });
  if (seeded.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`seeding the market (${seedScript}) failed:\n${seeded.stdout}\n${seeded.stderr}`);
  }
  const started = await startServer(dataDir, undefined, env).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const stop = async () => {
    started.child.kill("SIGTERM");
    await started.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilHealthy(started.port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { server: { base: `http://localhost:${started.port}`, stop }, stdout: seeded.stdout };
}

/** A seeded server for a spec file: started before its tests (seeding takes minutes), stopped after them. */
export function seededMarketServerForFile(label: string): { readonly base: string } {
  let seeded: SeededMarketServer | undefined;
  base.beforeAll(async () => {
    base.setTimeout(240_000);
    seeded = await startSeededMarketServer(label);
  });
  base.afterAll(async () => {
    await seeded?.stop();
  });
  return {
    get base() {
      if (!seeded) throw new Error("seededMarketServerForFile: the server starts in beforeAll");
      return seeded.base;
    },
  };
}

/**
 * Playwright's `test` with `sampleMarket`: one sample market server (startSampleMarketServer) per
 * worker, started by the first test that asks for it and shared by every spec file after it, since
 * seeding and starting one takes a minute and the specs that use it only read the market (the
 * accounts each signs up are its own).
 */
export const test = base.extend<object, { sampleMarket: SampleMarketServer }>({
  sampleMarket: [
    // Playwright reads a fixture's dependencies from its first parameter's destructuring: this one has none.
    async ({}, provide) => {
      const server = await startSampleMarketServer("sample-market");
      try {
        await provide(server);
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
});
