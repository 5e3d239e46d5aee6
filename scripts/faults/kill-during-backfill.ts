// Scenario e: `npm run backfill` SIGKILLed while a venue's answer is in flight, part of the history
// stored, then run again: every market ends with each settlement once (no gap, no duplicate), every
// cursor done, and the second run reads on from the cursors instead of starting over. The venue is
// Bybit's history endpoint as its reader calls it (newest first, 200 rows a page, paged backward by
// `endTime`), answered by a loopback server with a delay per answer so the kill lands mid-request.
import type { ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { exited, startChild } from "@/scripts/bench/processes";
import { createServerDatabase, ROOT, waitUntil, type FaultEnv } from "./harness";
import { Report } from "./report";

const H = 3_600_000;
const DAY = 24 * H;
const BASES = ["BTC", "ETH", "SOL", "XRP", "DOGE", "ADA"];
const HISTORY_DAYS = 400;
const PAGE = 200;
const ANSWER_DELAY_MS = 150;

/** Each market's 8-hourly settlements from the first midnight of the range to `until`. */
function settlementTimes(since: number, until: number): number[] {
  const times: number[] = [];
  for (let t = Math.ceil(since / DAY) * DAY; t <= until; t += 8 * H) times.push(t);
  return times;
}

/** Bybit's /v5/market/funding/history over `times`: up to `limit` rows at or before `endTime`, newest first. */
function bybitVenue(times: readonly number[]) {
  const asked = { requests: 0, inFlight: 0 };
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://venue");
    const symbol = url.searchParams.get("symbol") ?? "";
    const endTime = Number(url.searchParams.get("endTime"));
    const limit = Number(url.searchParams.get("limit"));
    const known = BASES.some((base) => `${base}USDT` === symbol);
    const list = known
      ? times
          .filter((t) => t <= endTime)
          .slice(-limit)
          .reverse()
          .map((t) => ({ symbol, fundingRate: (0.0001 + (t % 7) * 1e-6).toFixed(8), fundingRateTimestamp: String(t) }))
      : [];
    asked.requests += 1;
    asked.inFlight += 1;
    setTimeout(() => {
      asked.inFlight -= 1;
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ retCode: 0, retMsg: "OK", result: { category: "linear", list }, time: Date.now() }));
    }, ANSWER_DELAY_MS);
  };
  return { asked, server: createServer(answer) };
}

export async function killDuringBackfill(env: FaultEnv): Promise<Report> {
  const report = new Report("e. SIGKILL during a backfill");
  const database = await createServerDatabase(env.databaseUrl);
  const now = Date.now();
  const sinceDay = new Date(now - HISTORY_DAYS * DAY).toISOString().slice(0, 10);
  const times = settlementTimes(Date.parse(sinceDay), now);
  const venue = bybitVenue(times);
  await new Promise<void>((resolve) => venue.server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(venue.server.address() as AddressInfo).port}`;
  const expected = BASES.length * times.length;
  const storedRows = async () => database.db.fundingRate.count({ where: { exchange: "bybit" } });
  const backfill = (): { child: ChildProcess; output: () => string } => {
    let output = "";
    const child = startChild(
      process.execPath,
      ["--import", "tsx", "--import", path.join(ROOT, "scripts/faults/venues-on-loopback.ts"), path.join(ROOT, "scripts/backfill.ts"), "--venues=bybit", `--since=${sinceDay}`],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url, FAULT_VENUE_ORIGIN: origin }, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    return { child, output: () => output };
  };
  try {
    // The markets to read, as the worker's last round would have seeded them.
    await database.db.backfillCursor.createMany({
      data: BASES.map((base) => ({ exchange: "bybit", market: `${base}/USDT:USDT`, base, venueMarketId: `${base}USDT` })),
    });

    const first = backfill();
    const midway = await waitUntil(async () => venue.asked.inFlight > 0 && (await storedRows()) >= expected * 0.3, 120_000, 50);
    const atKill = await storedRows();
    first.child.kill("SIGKILL");
    await exited(first.child);
    report.check(
      "the first run was killed with part of the history stored and an answer in flight",
      midway && atKill > 0 && atKill < expected,
      `${atKill} of ${expected} rows stored, ${venue.asked.requests} requests asked${midway ? "" : `; output: ${first.output().slice(-400)}`}`,
    );
    const requestsBefore = venue.asked.requests;

    const second = backfill();
    const code = await exited(second.child);
    report.check("the second run finishes", code === 0, code === 0 ? "" : `exit ${code}: ${second.output().slice(-600)}`);

    const stored = await database.db.$queryRaw<{ market: string; rows: bigint; distinct_times: bigint; first: Date; last: Date }[]>`
      SELECT market, count(*) AS rows, count(DISTINCT time) AS distinct_times, min(time) AS first, max(time) AS last
      FROM "FundingRate" WHERE exchange = 'bybit' GROUP BY market ORDER BY market`;
    const complete = stored.filter((m) => Number(m.rows) === times.length && Number(m.distinct_times) === times.length);
    report.check(
      "every market holds each settlement exactly once, first to last",
      stored.length === BASES.length && complete.length === BASES.length && stored.every((m) => m.first.getTime() === times[0] && m.last.getTime() === times.at(-1)),
      stored.map((m) => `${m.market} ${m.rows}/${times.length}`).join(", "),
    );
    const cursors = await database.db.backfillCursor.findMany({ where: { exchange: "bybit" } });
    report.check("every cursor is done", cursors.every((c) => c.status === "done"), cursors.map((c) => `${c.market} ${c.status}`).join(", "));
    const pagesPerMarket = Math.ceil(times.length / PAGE);
    const resumedRequests = venue.asked.requests - requestsBefore;
    report.check(
      "the second run read on from the cursors rather than from the start",
      resumedRequests < BASES.length * pagesPerMarket,
      `${resumedRequests} requests in the second run; ${BASES.length * pagesPerMarket} read everything`,
    );
  } finally {
    venue.server.close();
    await database.close();
  }
  return report;
}
