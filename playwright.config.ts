import { defineConfig } from "@playwright/test";

// e2e/run.ts chooses the port and the throw-away data directory, and checks for a browser.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e-artifacts/results",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    command: "node --import tsx server.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR ?? ".data/e2e",
      NODE_ENV: "production",
      ADMIN_EMAILS: "operator@e2e.test",
      // Every spec signs up its own accounts from 127.0.0.1; the limits themselves are integration-tested.
      AUTH_ATTEMPT_SCALE: "50",
      // No market rounds and no sample: specs seed the data they need and never reach the exchanges.
      INGEST_DISABLED: "1",
    },
  },
});
