import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServices } from "@/lib/app-services";
import type { OpenDatabase } from "@/lib/db/open-database";
import { createKeyFor, createUser, liveOpportunity, seedLiveOpportunities } from "@/tests/integration/helpers/api-fixtures";
import { fixedDepthSources } from "@/tests/support/market/fixed-depth";
import { createTestDatabase } from "@/tests/support/test-database";

export interface ClientTestServer {
  baseUrl: string;
  keys: {
    /** Desk, live, every permission. */
    desk: string;
    /** Desk, svc_sk_test_: the sandbox. */
    test: string;
    /** Free account: verify works, everything else is 403. */
    free: string;
    /** Every other request with it is refused with 429 and retry_after 1. */
    rateLimitedEveryOther: string;
    /** Every other request with it fails with 500 INTERNAL_ERROR. */
    failingEveryOther: string;
  };
  /** The seeded live opportunities' count, so pagination can be checked against it. */
  liveOpportunities: number;
  close(): Promise<void>;
}

/**
 * The real /v1 app over HTTP on a free loopback port, on a fresh database with seeded keys and
 * opportunities, for the client libraries' tests. Two keys misbehave on purpose, through the
 * limiter and the key verifier the app really calls, so retries are tested against real 429 and
 * 500 answers and their headers.
 */
export async function startClientTestServer(): Promise<ClientTestServer> {
  const database: OpenDatabase = await createTestDatabase();
  // Quotes of the made-up live opportunities read a fixed book: no venue is reached.
  const base = createAppServices(async () => database.db, process.env, { depthSources: fixedDepthSources() });
  const db = database.db;
  // BTC-binance-bybit is the id the routes' documented examples ask for.
  const opportunities = [liveOpportunity("BTC", 12), ...Array.from({ length: 7 }, (_, i) => liveOpportunity(`COIN${i}`, 10 + i * 5))];
  await seedLiveOpportunities(db, opportunities);
  const desk = await createUser(db, "desk");
  const free = await createUser(db, "free");
  const rateLimited = await createKeyFor(db, desk.id);
  const failing = await createKeyFor(db, desk.id);
  const keys = {
    desk: (await createKeyFor(db, desk.id)).secret,
    test: (await createKeyFor(db, desk.id, { mode: "test" })).secret,
    free: (await createKeyFor(db, free.id)).secret,
    rateLimitedEveryOther: rateLimited.secret,
    failingEveryOther: failing.secret,
  };

  let limitCalls = 0;
  let verifyCalls = 0;
  const services: AppServices = {
    ...base,
    limiter: Object.assign(Object.create(base.limiter) as AppServices["limiter"], {
      async limit(key: string, max: number, windowMs: number) {
        if (key === `key:${rateLimited.id}` && limitCalls++ % 2 === 0) {
          return { success: false, limit: max, remaining: 0, reset: Date.now() + 1000 };
        }
        return base.limiter.limit(key, max, windowMs);
      },
    }),
    verifier: Object.assign(Object.create(base.verifier) as AppServices["verifier"], {
      async verify(raw: string) {
        if (raw === failing.secret && verifyCalls++ % 2 === 0) throw new Error("injected failure");
        return base.verifier.verify(raw);
      },
    }),
  };
  const app = createApiApp(() => services);
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    keys,
    liveOpportunities: opportunities.length,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await base.stopRecorders();
      await database.close();
    },
  };
}
