// Seeds an embedded data directory with the offline sample, as a fresh install publishes it, for the
// screener's and the opportunity page's end-to-end specs (a server owns its PGlite, so the data must
// be there before it starts, and the e2e servers run with INGEST_DISABLED, so they never reach a venue):
//   node --import tsx e2e/helpers/seed-sample-market.ts <data dir>
// The sample has recorded order books for BTC, so quotes of its BTC pairs return figures offline.
// One BTC pair's 8-hour leg is given two interval changes in its last week: settling every 4 hours
// for a day (seen only in its settlements, as a backfilled or recorded history shows one), then
// back to 8 hours (also stored as ingestion stores a change it detects). Prints one JSON line:
// the pair's id, the changed leg's venue, and the two changes' times.
import { openDatabase } from "@/lib/db/open-database";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";
import { loadItems } from "@/lib/market/opportunities/store";

const HOUR = 3_600_000;
/** Venues with both a recorded BTC book (quotes) and recorded BTC funding history (the chart). */
const EIGHT_HOUR = ["binance", "bybit", "gate"];
const QUOTABLE = [...EIGHT_HOUR, "hyperliquid"];

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: seed-sample-market.ts <data dir>");
  const opened = await openDatabase({ driver: "pglite", dataDir });
  try {
    const published = await publishSampleIfNeverLive(opened.db);
    if (published === null) throw new Error("the data directory already holds a set");
    const items = await loadItems(opened.db);
    const pair = items.find(
      (o) => o.symbol === "BTC" && QUOTABLE.includes(o.long.exchange) && QUOTABLE.includes(o.short.exchange) && [o.long, o.short].some((l) => EIGHT_HOUR.includes(l.exchange)),
    );
    if (!pair) throw new Error("the sample has no BTC pair of the recorded venues");
    const leg = EIGHT_HOUR.includes(pair.long.exchange) ? pair.long : pair.short;
    const where = { exchange: leg.exchange, market: leg.market };
    // Settlement times as recorded (the venue's milliseconds of jitter kept): the changes fall on them.
    const recent = await opened.db.fundingRate.findMany({ where, orderBy: { time: "desc" }, take: 10, select: { time: true } });
    if (recent.length < 10) throw new Error(`too little sample history for ${leg.exchange} ${leg.market}`);
    const shortened = recent[9]!.time;
    const restored = recent[6]!.time;
    // The day settled every 4 hours: the 8-hour rows in it become 4-hour ones, with a row between each two.
    const day = await opened.db.fundingRate.findMany({ where: { ...where, time: { gt: shortened, lte: restored } }, orderBy: { time: "asc" } });
    await opened.db.fundingRate.updateMany({ where: { ...where, time: { gt: shortened, lte: restored } }, data: { intervalHours: 4 } });
    await opened.db.fundingRate.createMany({
      data: day.map((row) => ({ ...row, time: new Date(row.time.getTime() - 4 * HOUR), rate: row.rate / 2, intervalHours: 4 })),
    });
    await opened.db.fundingIntervalChange.create({
      data: { ...where, base: pair.symbol, effectiveAt: restored, fromHours: 4, toHours: 8, source: "venue", detectedAt: new Date(restored.getTime() + 60_000) },
    });
    console.log(JSON.stringify({ id: pair.id, leg: leg.exchange, shortened: shortened.toISOString(), restored: restored.toISOString(), opportunities: published }));
  } finally {
    await opened.close();
  }
}

await main();
