// npm run test:e2e: Playwright against the production build on a free port with a throw-away
// data directory, in Debian's Chromium (Playwright's own browser download cannot work offline).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/free-port";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(
    `No Chromium found at ${chromium}. The end-to-end tests drive a real browser:\n` +
      "  install Debian's build with `sudo apt-get install -y chromium`,\n" +
      "  or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  );
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), "fods-e2e-"));
try {
  const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      E2E_PORT: String(await freePort()),
      E2E_SMTP_PORT: String(await freePort()),
      E2E_MAIL_PORT: String(await freePort()),
      E2E_DATA_DIR: dataDir,
      PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
