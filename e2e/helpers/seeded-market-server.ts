import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "@playwright/test";
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
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `fods-${label}-`));
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "e2e/helpers/seed-screener-market.ts", dataDir], {
    encoding: "utf8",
  });
  if (seeded.status !== 0) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`seeding the market failed:\n${seeded.stdout}\n${seeded.stderr}`);
  }
  const server = await startServer(dataDir, undefined, { INGEST_INTERVAL_MS: String(SEEDED_INGEST_INTERVAL_MS) });
  await waitUntilHealthy(server.port);
  return {
    base: `http://localhost:${server.port}`,
    async stop() {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A seeded server for a spec file: started before its tests (seeding takes minutes), stopped after them. */
export function seededMarketServerForFile(label: string): { readonly base: string } {
  let seeded: SeededMarketServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    seeded = await startSeededMarketServer(label);
  });
  test.afterAll(async () => {
    await seeded?.stop();
  });
  return {
    get base() {
      if (!seeded) throw new Error("seededMarketServerForFile: the server starts in beforeAll");
      return seeded.base;
    },
  };
}
