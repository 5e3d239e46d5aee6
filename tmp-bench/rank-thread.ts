import { VenueThread } from "@/lib/market/ingest/venue-thread";
import { rankWithHistory, type MarketHistory } from "@/lib/market/ingest/market-history";
import { wideMarket } from "@/tests/support/market/wide-market";
import { marketKey } from "@/lib/market/model/market-average";
const { snapshots, marketHistory } = wideMarket(1200);
const sums = new Map(snapshots.map((s, i) => [marketKey(s.exchange, s.market), { day: { apr: i % 11, samples: 3 }, week: { apr: 20 + (i % 5), samples: 12 } }]));
const history: MarketHistory = { ...marketHistory, averages: { sums, weekFrom: 0, dayFrom: 0, to: Number.MAX_SAFE_INTEGER }, persistence: null };
const thread = new VenueThread({ fetcherModule: new URL("../tests/integration/helpers/thread-venue-fetcher.ts", import.meta.url).href });
const rank = thread.ranker();
console.log("markets", snapshots.length);
for (let i = 0; i < 4; i++) {
  let t = performance.now();
  const a = rankWithHistory(snapshots, history);
  const here = performance.now() - t;
  t = performance.now();
  let busy = 0; let last = performance.now();
  const iv = setInterval(() => { const n = performance.now(); busy = Math.max(busy, n - last); last = n; }, 1);
  const b = await rank(snapshots, history);
  clearInterval(iv);
  const there = performance.now() - t;
  console.log(`pairs ${a.count} here ${here.toFixed(0)} ms; on the thread ${there.toFixed(0)} ms (longest main-thread gap ${busy.toFixed(0)} ms) ${b.count}`);
}
await thread.close();
