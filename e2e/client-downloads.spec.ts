import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { accountWithKey } from "./helpers/accounts";

// The Standard Webhooks specification's test vector.
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  headers: {
    "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
    "webhook-timestamp": "1614265330",
    "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  },
};

test("the clients download from /docs, install as npm and Python packages, and make a first call", async ({ page, playwright, baseURL }) => {
  const work = mkdtempSync(path.join(os.tmpdir(), "fods-clients-"));
  try {
    const { key } = await accountWithKey(playwright, baseURL!, { label: "first-call", tier: "pro", mode: "test", permissions: ["opportunities:read"] });
    const env = { ...process.env, FUNDING_DATA_API_KEY: key, FUNDING_DATA_BASE_URL: baseURL! };

    await page.goto("/docs");
    const links = await page.locator('a[href^="/downloads/"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    const typescript = links.find((href) => href.endsWith(".tgz"));
    const python = links.find((href) => href.endsWith(".tar.gz"));
    expect(typescript && python, `download links on /docs: ${links.join(", ")}`).toBeTruthy();
    const download = async (href: string, file: string) => {
      const response = await page.request.get(href);
      expect(response.status(), href).toBe(200);
      expect(response.headers()["content-type"]).toBe("application/gzip");
      writeFileSync(path.join(work, file), await response.body());
    };

    // TypeScript: an npm package with no dependencies, so npm installs it without the registry.
    await download(typescript!, "client.tgz");
    const project = path.join(work, "bot");
    execFileSync("mkdir", ["-p", project]);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "bot", private: true, type: "module" }));
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "../client.tgz"], { cwd: project, stdio: "pipe" });
    writeFileSync(
      path.join(project, "main.js"),
      `import { FundingDataClient, verifyWebhook } from "@funding-data/client";
const api = new FundingDataClient();
const verified = await api.verifyKey();
const { data } = await api.listOpportunities({ limit: 2 });
const events = [];
for await (const event of api.iterateEvents({ limit: 2 })) if (events.push(event.id) === 2) break;
// The push helpers ship too: the Standard Webhooks test vector verifies.
const signed = await verifyWebhook(${JSON.stringify(VECTOR.body)}, ${JSON.stringify(VECTOR.headers)}, "${VECTOR.secret}", { now: () => ${VECTOR.timestamp * 1000} });
console.log(JSON.stringify({ valid: verified.data.valid, items: data.items.length, signed }));`,
    );
    expect(JSON.parse(execFileSync("node", ["main.js"], { cwd: project, env, encoding: "utf8" }))).toEqual({ valid: true, items: 2, signed: { test: 2432232314 } });

    // Python: a source distribution; unpacked onto PYTHONPATH it needs nothing installed.
    await download(python!, "client.tar.gz");
    execFileSync("tar", ["-xzf", "client.tar.gz"], { cwd: work });
    const unpacked = path.join(work, path.basename(python!).replace(/\.tar\.gz$/, ""));
    const script = `import json
from funding_data import FundingDataClient, verify_webhook
api = FundingDataClient()
page = api.list_opportunities(limit=2)
events = [e["id"] for _, e in zip(range(2), api.iter_events(limit=2))]
signed = verify_webhook(${JSON.stringify(VECTOR.body)}, ${JSON.stringify(VECTOR.headers)}, "${VECTOR.secret}", now=lambda: ${VECTOR.timestamp})
print(json.dumps({"valid": api.verify_key()["data"]["valid"], "items": len(page["data"]["items"]), "signed": signed}))`;
    const printed = execFileSync("python3", ["-c", script], { env: { ...env, PYTHONPATH: unpacked }, encoding: "utf8" });
    expect(JSON.parse(printed)).toEqual({ valid: true, items: 2, signed: { test: 2432232314 } });

    expect((await page.request.get("/downloads/funding-data-client-0.0.0.tgz")).status()).toBe(404);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
