// Two /v1 server processes on one PostgreSQL and one Redis, as in the scale-out deployment
// (docs/decisions/scale-out.md: nothing correct may depend on process memory): one key's rate limit is shared
// between them, and a revocation made anywhere is in force in both before revokeKey returns.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeKey } from "@/lib/keys/account-keys";
import { keyEvents } from "@/lib/keys/key-events";
import { requestsPerMinute } from "@/lib/plans";
import { expectEnvelope, expectRateLimitHeaders, intHeader } from "./helpers/api-envelope";
import { createKeyFor, createUser, dbServices, signedIn } from "@/tests/support/api-fixtures";
import { createServerDatabase, type ServerDatabase } from "@/tests/support/server-database";
import { startApiProcess, type ApiProcess } from "./helpers/spawn-api-process";
import { withRoomInWindow } from "@/tests/support/fixed-window";

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const WINDOW_MS = 60_000;
const BURST = 1_500;
const origin = { ip: "203.0.113.9", userAgent: "vitest multi-process" };
const HEALTH_TOKEN = "multi-process-health";

interface Answer {
  process: number;
  status: number;
  headers: Headers;
  text: string;
  at: number;
}

async function get(target: ApiProcess, index: number, path: string, key: string): Promise<Answer> {
  const response = await fetch(`${target.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const text = await response.text();
  return { process: index, status: response.status, headers: response.headers, text, at: Date.now() };
}

describe.skipIf(!DATABASE_URL || !REDIS_URL)(
  "two API processes sharing PostgreSQL and Redis (runs only with both DATABASE_URL and REDIS_URL set, as in CI's second integration pass)",
  () => {
    let database: ServerDatabase;
    let processes: ApiProcess[] = [];

    beforeAll(async () => {
      database = await createServerDatabase(DATABASE_URL!);
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database.url, REDIS_URL: REDIS_URL!, NODE_ENV: "production" };
      delete env.RATE_LIMIT_SCALE; // the real limits: Desk 1000 a minute
      // This suite measures sharing through Redis; a loaded CI machine can take Redis past the 50 ms
      // fallback, and falling back is what ratelimit.redis.test.ts covers.
      env.RATE_LIMIT_STORE_TIMEOUT_MS = "2000";
      env.HEALTH_DETAILS_TOKEN = HEALTH_TOKEN;
      const started = await Promise.allSettled([startApiProcess(env), startApiProcess(env)]);
      processes = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      const failed = started.find((s) => s.status === "rejected");
      if (failed) throw failed.reason;
      // This process revokes keys; it must reach the others through Redis just as a web server would.
      await keyEvents().connect(REDIS_URL!);
    }, 120_000);

    afterAll(async () => {
      await Promise.all(processes.map((p) => p.stop()));
      await keyEvents().close();
      await database?.close();
    });

    it("admits exactly 1,000 of 1,500 concurrent requests with one Desk key, split across both processes", async () => {
      const user = await createUser(database.db, "desk");
      const warmUp = await createKeyFor(database.db, user.id);
      const { secret } = await createKeyFor(database.db, user.id);

      // Each process has opened its database pool and its Redis limiter, and uses Redis.
      for (const [index, target] of processes.entries()) {
        const answer = await get(target, index, "/v1/auth/verify", warmUp.secret);
        expect(answer.status, target.output()).toBe(200);
        const health = await (await fetch(`${target.baseUrl}/healthz`, { headers: { Authorization: `Bearer ${HEALTH_TOKEN}` } })).json();
        expect(health.rate_limiter, `process ${index} limits through Redis`).toMatchObject({ store: "redis", degraded: false });
      }

      // The limit counts in fixed 60 s windows: a burst that straddled a window edge would
      // legitimately admit more. Start it well inside a window.
      await withRoomInWindow(WINDOW_MS, 15_000);
      const windowIndex = Math.floor(Date.now() / WINDOW_MS);

      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) => get(processes[i % 2]!, i % 2, "/v1/auth/verify", secret)),
      );
      expect(Math.floor(Date.now() / WINDOW_MS), "the burst stayed inside one window").toBe(windowIndex);

      const limit = requestsPerMinute("desk");
      const admitted = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status === 429);
      const byProcess = [0, 1].map((p) => ({
        admitted: admitted.filter((a) => a.process === p).length,
        refused: refused.filter((a) => a.process === p).length,
      }));
      const logs = processes.map((p, i) => `--- process ${i} ---\n${p.output().slice(-2_000)}`).join("\n");
      const summary = `admitted ${admitted.length}, refused ${refused.length}, per process ${JSON.stringify(byProcess)}\n${logs}`;
      expect(admitted.length + refused.length, `only 200s and 429s: ${summary}`).toBe(BURST);
      expect(admitted.length, summary).toBe(limit);
      expect(refused.length, summary).toBe(BURST - limit);
      for (const p of byProcess) expect(p.admitted, `both processes admit from the shared window: ${summary}`).toBeGreaterThan(0);

      const remaining: number[] = [];
      const resets = new Set<number>();
      for (const answer of answers) {
        const where = `process ${answer.process}, request answered ${answer.status}`;
        const envelope = expectEnvelope(answer.status, answer.headers, answer.text, where);
        const headers = expectRateLimitHeaders(answer.headers, limit, where, answer.at);
        resets.add(headers.reset);
        if (answer.status === 200) {
          remaining.push(headers.remaining);
          expect(envelope.kind === "success" && envelope.data).toMatchObject({ valid: true, tier: "desk" });
        } else {
          expect(headers.remaining, where).toBe(0);
          expect(envelope.kind === "error" && envelope.error.code, where).toBe("RATE_LIMITED");
          expect(intHeader(answer.headers, "retry-after"), where).toBeGreaterThanOrEqual(1);
        }
      }
      // One shared counter: every admitted request saw its own count, 999 down to 0.
      expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i));
      expect([...resets], "one window, one reset time").toEqual([(windowIndex + 1) * (WINDOW_MS / 1000)]);
    }, 120_000);

    it("refuses a revoked key on the very next request to each process, though both had it cached", async () => {
      const user = await createUser(database.db, "desk");
      for (let round = 0; round < 3; round++) {
        const { secret, id } = await createKeyFor(database.db, user.id);
        for (const [index, target] of processes.entries()) {
          // The first request loads the key, the second is answered from the verified-key cache.
          for (let i = 0; i < 2; i++) expect((await get(target, index, "/v1/auth/verify", secret)).status, target.output()).toBe(200);
        }
        const started = performance.now();
        await revokeKey(dbServices(database.db), signedIn(user), id, origin);
        const revokeMs = performance.now() - started;
        const next = await Promise.all(processes.map((target, index) => get(target, index, "/v1/auth/verify", secret)));
        for (const answer of next) {
          const envelope = expectEnvelope(answer.status, answer.headers, answer.text, `process ${answer.process} after revocation`);
          expect(answer.status, `process ${answer.process}, round ${round}: ${answer.text}`).toBe(401);
          expect(envelope.kind === "error" && envelope.error.code).toBe("UNAUTHORIZED");
        }
        // Both processes acknowledged the change: revokeKey did not sit out the 500 ms ack timeout.
        expect(revokeMs, "revokeKey returned once both processes acknowledged").toBeLessThan(500);
      }
    }, 60_000);
  },
);
