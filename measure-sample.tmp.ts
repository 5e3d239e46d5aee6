import { createTestDatabase } from "@/tests/support/test-database";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";
import { computeOpportunities } from "@/lib/market/opportunities/rank-opportunities";
import { publish } from "@/lib/market/opportunities/store";
import { replaySampleMarket } from "@/lib/market/sample/replay-sample-market";
const mode = process.argv[2];
const database = await createTestDatabase();
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
if (mode === "new") await publishSampleIfNeverLive(database.db);
else {
  const { snapshots } = await replaySampleMarket();
  const asOf = new Date(Math.min(...snapshots.map((s) => s.observedAt)));
  await publish(database.db, computeOpportunities(snapshots).opportunities, { asOf, sample: true });
}
const ms = performance.now() - t0;
const rss1 = process.memoryUsage().rss;
console.log(JSON.stringify({ mode, ms: Math.round(ms), rssBeforeMB: Math.round(rss0 / 1e6), rssAfterMB: Math.round(rss1 / 1e6), rows: await database.db.fundingRate.count() }));
await database.close();
