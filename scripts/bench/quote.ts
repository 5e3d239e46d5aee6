// `npm run bench:quote`: the quote's performance targets, measured in-process
// through the /v1 app (key check, rate limit, validation, handler, envelope), with every venue's
// answers replayed through ccxt in place of the network (tests/support/market/book-replays.ts:
// the recorded books and market lists in lib/market/sample/recordings and tests/fixtures/venues).
//   1. A quote with its books cached: p99 < 20 ms. Printed beside GET /v1/auth/verify measured the
//      same way in the same run, the cheapest authenticated request, so the ratio says what a quote
//      costs above the request path itself on this machine.
//   2. 50 concurrent quotes of one cold market: one book request per venue (single flight), counted
//      among the replayed requests.
// Figures, not a test: nothing here fails on a slow machine; each line says MET or MISSED.
//
//   node --import tsx scripts/bench/quote.ts [--quotes=2000] [--concurrent=50]
import { createApiApp } from "@/lib/api/app";
import { createAppServices, type AppServiceOptions } from "@/lib/app-services";
import type { Db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/generate";
import { keyModeToDb } from "@/lib/keys/mode";
import { PERMISSIONS, tierToDb } from "@/lib/keys/permissions";
import { publish } from "@/lib/market/opportunities/store";
import { UNKNOWN_PERSISTENCE, type Opportunity } from "@/lib/market/model/types";
import { replayedDepthSources } from "@/tests/support/market/book-replays";
import { makeLeg } from "@/tests/support/market/make-leg";
import { usdtPerp } from "@/tests/support/market/make-snapshot";
import { createTestDatabase } from "@/tests/support/test-database";
import { intOption, percentile } from "./bench-args";

const TARGET_P99_MS = 20;
const PAIR = "BTC-bybit-okx";
const QUOTE_PATH = `/v1/opportunities/${PAIR}/quote?notional=50000&hold_hours=72&leverage=3`;

const quotes = intOption("quotes", 2_000);
const concurrent = intOption("concurrent", 50);

const ms = (value: number) => `${value.toFixed(2)} ms`;

/** The live set of one opportunity (BTC long bybit, short okx, both BTC/USDT:USDT), bybit's taker fee stated; a Desk key's secret. */
async function seed(db: Db): Promise<string> {
  const observedAt = new Date().toISOString();
  const leg = (exchange: string, rate: number) =>
    makeLeg({ exchange, market: "BTC/USDT:USDT", funding_rate: rate, funding_rate_per_hour: rate / 8, next_funding_at: observedAt, observed_at: observedAt });
  const opportunity: Opportunity = {
    id: PAIR,
    symbol: "BTC",
    type: "perp_perp",
    long: leg("bybit", 0.00005),
    short: leg("okx", 0.0002),
    apr: 16.425,
    net_apr: 11.4,
    funding_spread_8h: 0.00015,
    price_spread_bps: null,
    price_spread_unavailable_reason: "price_missing",
    open_interest_usd: null,
    volume_24h_usd: null,
    updated_at: observedAt,
    persistence: UNKNOWN_PERSISTENCE,
  };
  await publish(db, [opportunity], { asOf: new Date(observedAt), sample: false });
  const round = await db.ingestionRound.create({ data: { startedAt: new Date(), status: "published" } });
  await db.roundSnapshot.create({ data: { roundId: round.id, exchange: "bybit", ...usdtPerp("BTC"), takerFee: 0.00055, observedAt: new Date() } });
  const user = await db.user.create({ data: { email: "bench-quote@bench.test", passwordHash: "not-used", tier: tierToDb("desk") } });
  const generated = generateApiKey("live");
  await db.apiKey.create({
    data: { userId: user.id, name: "bench key", mode: keyModeToDb(generated.mode), prefix: generated.prefix, hash: generated.hash, permissions: [...PERMISSIONS] },
  });
  return generated.key;
}

/** The app on `db` with quotes reading replayed venues; a rate limit no run reaches. */
function appOn(db: Db, options: AppServiceOptions) {
  const services = createAppServices(async () => db, { ...process.env, RATE_LIMIT_SCALE: "1000", REDIS_URL: "", UPSTASH_REDIS_REST_URL: "" }, options);
  const app = createApiApp(() => services);
  return { services, app };
}

async function timed(app: ReturnType<typeof createApiApp>, path: string, key: string, count: number): Promise<number[]> {
  const request = () => app.fetch(new Request(`http://localhost${path}`, { headers: { Authorization: `Bearer ${key}` } }));
  for (let i = 0; i < 200; i++) await (await request()).text(); // warm-up: ccxt's modules, markets, the JIT
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const response = await request();
    await response.text();
    times.push(performance.now() - t0);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  }
  return times.sort((a, b) => a - b);
}

async function benchCached(db: Db, key: string) {
  // Books and tiers held for the whole run, so every measured quote is served from the cache.
  const { services, app } = appOn(db, { depthSources: replayedDepthSources().sources, depth: { bookFreshMs: 3_600_000 } });
  try {
    const baseline = await timed(app, "/v1/auth/verify", key, quotes);
    const quoted = await timed(app, QUOTE_PATH, key, quotes);
    const p99 = percentile(quoted, 99);
    const base99 = percentile(baseline, 99);
    console.log(`  baseline GET /v1/auth/verify: p50 ${ms(percentile(baseline, 50))}  p99 ${ms(base99)}`);
    console.log(`  quote ${QUOTE_PATH}`);
    console.log(`    p50 ${ms(percentile(quoted, 50))}  p90 ${ms(percentile(quoted, 90))}  p99 ${ms(p99)}  max ${ms(quoted.at(-1) ?? Number.NaN)}  (${quotes} quotes)`);
    console.log(`    p99 ${(p99 / base99).toFixed(2)}x the baseline's`);
    console.log(`  p99 target < ${TARGET_P99_MS} ms  ratio ${(p99 / TARGET_P99_MS).toFixed(2)}  ${p99 < TARGET_P99_MS ? "MET" : "MISSED"}`);
  } finally {
    await services.stopRecorders();
  }
}

async function benchColdMarket(db: Db, key: string) {
  const replays = replayedDepthSources();
  const { services, app } = appOn(db, { depthSources: replays.sources });
  try {
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: concurrent }, async () => {
        const response = await app.fetch(new Request(`http://localhost${QUOTE_PATH}`, { headers: { Authorization: `Bearer ${key}` } }));
        await response.text();
        return response.status;
      }),
    );
    const elapsed = performance.now() - t0;
    const ok = answers.filter((s) => s === 200).length;
    const fetches = { bybit: replays.bookRequests("bybit"), okx: replays.bookRequests("okx") };
    console.log(`  ${concurrent} concurrent quotes of ${PAIR}, no book cached: ${ok} answered 200 in ${ms(elapsed)} (each venue's market list read on the way)`);
    console.log(`  book requests: bybit ${fetches.bybit}, okx ${fetches.okx}  target 1 per venue  ratio ${(Math.max(fetches.bybit, fetches.okx) / 1).toFixed(2)}  ${fetches.bybit === 1 && fetches.okx === 1 && ok === concurrent ? "MET" : "MISSED"}`);
  } finally {
    await services.stopRecorders();
  }
}

async function main() {
  console.log(`bench:quote: in-process /v1 app on an in-memory PGlite, venues replayed through ccxt (no network)`);
  const database = await createTestDatabase();
  try {
    const key = await seed(database.db);
    console.log(`\n1. A quote with cached books (${PAIR}, 50,000 USD a leg, 72 h, 3x)`);
    await benchCached(database.db, key);
    console.log(`\n2. ${concurrent} concurrent quotes of one cold market`);
    await benchColdMarket(database.db, key);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
