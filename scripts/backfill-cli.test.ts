import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// `npm run backfill` refuses bad arguments before it opens any database: exit 2, the problem and the usage.
const run = promisify(execFile);

describe("npm run backfill", () => {
  it("names a bad argument and shows its usage", async () => {
    const failure = await run("npx", ["tsx", "scripts/backfill.ts", "--venues=binanse"], { env: { ...process.env, DATABASE_URL: "" } }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("Unknown venue: binanse");
    expect(failure?.stderr).toContain("Usage: npm run backfill -- [--venues=binance,okx] [--since=YYYY-MM-DD]");
  }, 60_000);
});
