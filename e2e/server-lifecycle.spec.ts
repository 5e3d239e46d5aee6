import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { HEALTH_DETAILS, startServer, waitUntilHealthy } from "./helpers/server-process";

test("a second server on the same data directory fails fast and the first keeps running", async ({ request }) => {
  const second = await startServer(process.env.E2E_DATA_DIR!);
  const started = Date.now();
  const code = await second.exited;
  expect(code).toBe(1);
  expect(Date.now() - started).toBeLessThan(15_000);
  expect(second.output()).toMatch(/embedded database in .* is in use by process \d+/);
  expect((await request.get("/healthz")).status()).toBe(200);
});

test("a killed server restarts with its data and re-runs no migration", async () => {
  test.setTimeout(180_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "fods-restart-"));
  try {
    const first = await startServer(dataDir);
    await waitUntilHealthy(first.port);
    expect(first.output()).toContain("Applied migrations:");
    first.child.kill("SIGKILL");
    await first.exited;

    const second = await startServer(dataDir, first.port);
    await waitUntilHealthy(second.port);
    expect(second.output()).not.toContain("Applied migrations:");
    const health = await (await fetch(`http://localhost:${second.port}/healthz`, { headers: HEALTH_DETAILS })).json();
    expect(health.database.status).toBe("up");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
