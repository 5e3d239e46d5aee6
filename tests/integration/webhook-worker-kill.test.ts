import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type OpenDatabase } from "@/lib/db/open-database";
import { createEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { createUser } from "@/tests/support/api-fixtures";
import { createServerDatabase } from "@/tests/support/server-database";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

// A delivery survives `kill -9` of the process sending it. `npm run worker`
// takes the job and is SIGKILLed while the receiver holds the request; a new worker claims the
// job again once its lease ran out, and the receiver answers that attempt: one 2xx, both requests
// carrying the same webhook-id, the delivery recorded as succeeded once and no job left. On the
// embedded database by default (the worker owns the data directory, as a server would), on
// PostgreSQL when DATABASE_URL is set.

const ROOT = path.resolve(__dirname, "../..");
const TIMEOUT_MS = 1_000;

interface Target {
  env: Record<string, string>;
  open(): Promise<OpenDatabase>;
  close(): Promise<void>;
}

async function makeTarget(): Promise<Target> {
  if (process.env.DATABASE_URL) {
    const database = await createServerDatabase(process.env.DATABASE_URL);
    await database.db.$disconnect();
    return {
      env: { DATABASE_URL: database.url },
      open: () => openDatabase({ driver: "postgres", url: database.url }),
      close: () => database.close(),
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "fods-webhook-kill-"));
  return {
    env: { DATA_DIR: dir, DATABASE_URL: "" },
    open: () => openDatabase({ driver: "pglite", dataDir: dir }),
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function startWorker(target: Target): { child: ChildProcess; output: () => string } {
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/worker.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...target.env,
      INGEST_DISABLED: "1",
      WEBHOOK_ALLOW_PRIVATE_URLS: "1",
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_POLL_MS: "200",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once("exit", () => resolve()));
}

describe("a webhook delivery when its worker is killed", () => {
  let target: Target;
  let receiver: WebhookReceiver;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    target = await makeTarget();
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await Promise.all(children.map(exited));
    await receiver?.close();
    await target?.close();
  });

  /** A new worker, once the receiver has had `count` requests; its output joins the error if they do not come. */
  async function workerOnceReceived(count: number, timeoutMs: number) {
    const worker = startWorker(target);
    children.push(worker.child);
    await receiver.waitFor(count, timeoutMs).catch((error) => {
      throw new Error(`${error}\n${worker.output()}`);
    });
    return worker;
  }

  it("is sent again after the lease and completes exactly once at the receiver", { timeout: 150_000 }, async () => {
    const seed = await target.open();
    const user = await createUser(seed.db, "desk");
    const endpoint = await createEndpoint(
      { db: async () => seed.db, allowPrivateWebhookUrls: true },
      { userId: user.id, mode: "live", tier: "desk" },
      { url: `${receiver.url}/hook`, event_types: ["opportunity.opened"] },
      { ip: null, userAgent: null },
    );
    await seed.db.marketEvent.create({ data: { mode: "LIVE", type: "opportunity.opened", data: { opportunity_id: "BTC-binance-bybit" } } });
    await seed.close(); // the embedded database belongs to one process at a time: the worker's now

    // The first worker sends the delivery; the receiver holds it and the worker dies mid-attempt.
    receiver.answer = () => "hold";
    const first = await workerOnceReceived(1, 60_000);
    first.child.kill("SIGKILL");
    await exited(first.child);

    // A new worker: the job is still leased to the dead one, then claimed again and delivered.
    receiver.answer = () => ({ status: 200, body: "received" });
    const second = await workerOnceReceived(2, 90_000);
    // SIGTERM lets the attempt's record be written before the worker exits.
    second.child.kill("SIGTERM");
    await exited(second.child);
    expect(second.child.exitCode, second.output()).toBe(0);

    expect(receiver.received.map((r) => r.answered)).toEqual([null, 200]);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(receiver.received[1]!.headers["webhook-id"]);
    expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);

    const check = await target.open();
    try {
      const deliveries = await check.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, include: { attempts: true } });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({ id: receiver.received[0]!.headers["webhook-id"], status: "succeeded", attemptCount: 1 });
      expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([200]);
      expect(await check.db.job.count()).toBe(0);
    } finally {
      await check.close();
    }
  });
});
