import { defineConfig } from "@playwright/test";
import { e2ePorts, OPERATOR_EMAIL } from "./e2e/helpers/e2e-env";

// e2e/run.ts chooses the ports and the throw-away data directory, and checks for a browser.
const ports = e2ePorts();
const baseURL = `http://localhost:${ports.app}`;
// Every server of the run sends its mail to the catcher: the one below, and the ones specs start
// themselves (e2e/helpers/server-process.ts), which inherit the environment.
process.env.SMTP_URL = `smtp://127.0.0.1:${ports.smtp}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e-artifacts/results",
  // Two workers take the spec files between them, each file's tests in order in one worker: the
  // specs share the one server below and its mail catcher, each signing up its own accounts, and
  // start any server they change on a data directory of their own.
  fullyParallel: false,
  workers: 2,
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
  webServer: [
    {
      // The mail the server sends (verification and reset links) lands here for the specs to read.
      command: "node --import tsx e2e/helpers/mail-catcher.ts",
      url: `http://127.0.0.1:${ports.mail}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      // The operator is designated as a deployment does it: a verified account, then `npm run admin -- grant`,
      // both before the server takes the embedded database.
      command: `node --import tsx e2e/helpers/seed-operator.ts && node --import tsx scripts/admin.ts grant ${OPERATOR_EMAIL} && node --import tsx server.ts`,
      url: `${baseURL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PORT: String(ports.app),
        DATA_DIR: process.env.E2E_DATA_DIR ?? ".data/e2e",
        NODE_ENV: "production",
        MAIL_FROM: "Funding Opportunity Data Service <accounts@e2e.test>",
        // Every spec signs up its own accounts from 127.0.0.1; the limits themselves are integration-tested.
        AUTH_ATTEMPT_SCALE: "50",
        // No market rounds and no sample: specs seed the data they need and never reach the exchanges.
        INGEST_DISABLED: "1",
        // The specs read /healthz's details as the operator would (e2e/helpers/server-process.ts).
        HEALTH_DETAILS_TOKEN: "e2e-health-details",
        // The webhook spec's receiver listens on loopback, which production deliveries refuse.
        WEBHOOK_ALLOW_PRIVATE_URLS: "1",
        WEBHOOK_POLL_MS: "200",
      },
    },
  ],
});
