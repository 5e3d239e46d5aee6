import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLE_ENTRIES, buildServerBundle, STREAM_THREAD_ENTRY, VENUE_THREAD_ENTRY, withSourceUrl } from "./server-bundle.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Inside the project, as the real bundles are: they find their packages in its node_modules.
mkdirSync(path.join(ROOT, ".next"), { recursive: true });
const tmp = mkdtempSync(path.join(ROOT, ".next", "bundle-test-"));
const outDir = path.join(tmp, "nested");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
beforeAll(() => buildServerBundle(ROOT, outDir), 120_000);

describe("the server bundle", () => {
  it("points each module's import.meta.url at its own source, relative to the bundle", () => {
    const source = 'const FILE = new URL("./data.json", import.meta.url);';
    expect(withSourceUrl(source, "../../lib/x/y.ts")).toBe(
      'const FILE = new URL("./data.json", new URL("../../lib/x/y.ts", import.meta.url).href);',
    );
  });

  it("compiles server.ts with lib/ inside and packages outside, and every file it finds by URL exists", () => {
    const outFile = path.join(outDir, "server.mjs");
    const bundle = readFileSync(outFile, "utf8");
    expect(bundle).toContain('from "next"');
    expect(bundle).not.toMatch(/from "@\/lib\//);
    // Each use of import.meta.url names a source file, and those files are where the bundle says.
    const uses = [...bundle.matchAll(/new URL\("([^"]+)", import\.meta\.url\)\.href/g)].map((m) => m[1]!);
    expect(uses.length).toBeGreaterThan(0);
    expect(bundle.match(/import\.meta\.url/g)).toHaveLength(uses.length);
    for (const use of uses) expect(existsSync(fileURLToPath(new URL(use, pathToFileURL(outFile)))), use).toBe(true);
  });
});

describe("the worker's bundles", () => {
  it("compile the worker and its venue thread's entry, the worker starting the compiled thread rather than tsx", () => {
    expect(BUNDLE_ENTRIES).toMatchObject({ worker: "scripts/worker.ts", "venue-thread": VENUE_THREAD_ENTRY });
    const worker = readFileSync(path.join(outDir, "worker.mjs"), "utf8");
    const thread = readFileSync(path.join(outDir, "venue-thread.mjs"), "utf8");
    for (const bundle of [worker, thread]) expect(bundle).not.toMatch(/from "tsx|import\("tsx/);
    expect(thread).not.toContain("venue-thread-boot");
    // The thread's URL, as the compiled VenueThread makes it: from its source's URL, relative to the bundle.
    const [, fromSource, source] = /function threadEntry\(\) \{\s*return new URL\(.*?"([^"]*venue-thread\.mjs)".*?new URL\("([^"]+)", import\.meta\.url\)/s.exec(worker) ?? [];
    expect(fromSource, "the worker bundle starts its thread from a fixed file").toBeDefined();
    const threadUrl = new URL(fromSource!, new URL(source!, pathToFileURL(path.join(outDir, "worker.mjs"))));
    expect(fileURLToPath(threadUrl)).toBe(path.join(outDir, "venue-thread.mjs"));
  });

  it("run the venue thread as plain JavaScript: it answers a venue with what its fetcher gives", async () => {
    const fetcherModule = path.join(tmp, "fetcher.mjs");
    writeFileSync(fetcherModule, "export const createVenueFetcher = (o) => async (venue) => ({ status: 'stale', exchange: venue, fetchedAt: 1, error: o.say });\n");
    const thread = new Worker(path.join(outDir, "venue-thread.mjs"), { workerData: { fetcherModule: pathToFileURL(fetcherModule).href, fetcherOptions: { say: "from the compiled thread" } } });
    try {
      const reply = new Promise((resolve, reject) => {
        thread.once("message", resolve);
        thread.once("error", reject);
      });
      thread.postMessage({ id: 7, venue: "okx", timeoutMs: 1_000 });
      expect(await reply).toEqual({ id: 7, result: { status: "stale", exchange: "okx", fetchedAt: 1, error: "from the compiled thread" } });
    } finally {
      await thread.terminate();
    }
  }, 30_000);
});

describe("the stream thread's bundle", () => {
  it("is started compiled by the compiled server, and runs as plain JavaScript: a stream it opens reports its state", async () => {
    expect(BUNDLE_ENTRIES).toMatchObject({ "stream-thread": STREAM_THREAD_ENTRY });
    const server = readFileSync(path.join(outDir, "server.mjs"), "utf8");
    const thread = readFileSync(path.join(outDir, "stream-thread.mjs"), "utf8");
    expect(thread).not.toMatch(/from "tsx|import\("tsx/);
    const [, fromSource, source] = /return new URL\(.*?"([^"]*stream-thread\.mjs)".*?new URL\("([^"]+)", import\.meta\.url\)/s.exec(server) ?? [];
    expect(fromSource, "the server bundle starts the stream thread from a fixed file").toBeDefined();
    expect(fileURLToPath(new URL(fromSource!, new URL(source!, pathToFileURL(path.join(outDir, "server.mjs")))))).toBe(path.join(outDir, "stream-thread.mjs"));

    // Port 9 (discard) refuses: the stream goes down at once, reported by the compiled thread.
    const worker = new Worker(path.join(outDir, "stream-thread.mjs"), { workerData: { override: "ws://127.0.0.1:9", conflation: { moveBps: 10, refreshMs: 15_000 }, flushMs: 50 } });
    try {
      const report = new Promise((resolve, reject) => {
        worker.on("message", (message: { kind: string }) => message.kind === "state" && resolve(message));
        worker.once("error", reject);
      });
      worker.postMessage({ kind: "open", id: 3, venue: "okx", settings: { stallAfterMs: 10_000 }, markets: ["BTC-USDT-SWAP"] });
      expect(await report).toMatchObject({ kind: "state", id: 3, state: "down", reason: expect.stringContaining("ECONNREFUSED") });
    } finally {
      await worker.terminate();
    }
  }, 30_000);
});
