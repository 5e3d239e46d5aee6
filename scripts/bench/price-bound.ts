// `node --import tsx scripts/bench/price-bound.ts`: what holding legs to PAIR_PRICE_BOUND costs the
// ranking, in process. Every venue's recorded answers widened to 600 assets and parsed by the real
// connectors (as bench:market does), then ranked whole (a round's set) and a hundred assets at a
// time (a micro-batch's width) without a bound and with one, alternately, so both meet the same load;
// and the round's separate pass listing the legs left out (strayPriceLegs). The bound is 2, which no
// two positive prices exceed: the widened replays clone each venue's BTC at its own recording's price,
// so a tighter one would leave most legs out and rank less; at 2 every asset's prices are still sorted
// and checked and every pair ranked, the work of a live round whose venues agree. Prints medians and
// the ratio with / without.
//
//   node --import tsx scripts/bench/price-bound.ts [--assets=600] [--runs=15]
import os from "node:os";
import { rankOpportunities, strayPriceLegs } from "@/lib/market/opportunities/rank-opportunities";
import { answeredSnapshots, fetchAllVenues } from "@/lib/market/venues/fetch-all-venues";
import { VENUE_IDS } from "@/lib/market/model/types";
import { intOption, percentile } from "./bench-args";
import { createVenueFetcher } from "./replay-venue-fetcher";

const assets = intOption("assets", 600);
const runs = intOption("runs", 15);
const BOUND = 2;

const results = await fetchAllVenues(createVenueFetcher({ assets }), { timeoutMs: 120_000, venues: VENUE_IDS, now: Date.now });
const fresh = answeredSnapshots(results);
const bases = [...new Set(fresh.map((s) => s.base))].sort();
const batch = new Set(bases.slice(0, 100));
const narrow = fresh.filter((s) => batch.has(s.base));

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
/** Wall and CPU milliseconds of `work`; CPU (user + system, the process) moves less with the machine's load. */
const time = (work: () => unknown) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  work();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

function compare(name: string, snapshots: typeof fresh) {
  const without = { wall: [] as number[], cpu: [] as number[] };
  const withBound = { wall: [] as number[], cpu: [] as number[] };
  const pairs = [0, 0];
  // Both ways with options of one shape (`priceBound` undefined without), as a process always ranks
  // with one: alternating two shapes makes the ranking's reads of its options polymorphic, which
  // cost more than the bound itself.
  const options = (bounded: boolean) => ({ priceBound: bounded ? BOUND : undefined });
  // Warm-up, both ways.
  rankOpportunities(snapshots, options(false));
  rankOpportunities(snapshots, options(true));
  for (let run = 0; run < runs; run++) {
    // Alternating which goes first, so neither always follows the other's garbage.
    const order = run % 2 === 0 ? [false, true] : [true, false];
    for (const bounded of order) {
      let count = 0;
      const spent = time(() => {
        count = rankOpportunities(snapshots, options(bounded)).columns.count;
      });
      const into = bounded ? withBound : without;
      into.wall.push(spent.wall);
      into.cpu.push(spent.cpu);
      pairs[bounded ? 1 : 0] = count;
    }
  }
  const figures = (kind: "wall" | "cpu") => {
    const [a, b] = [median(without[kind]), median(withBound[kind])];
    return `${kind} without ${ms(a)}, with ${ms(b)}, ratio ${(b / a).toFixed(3)}`;
  };
  console.log(`  ${name}: ${snapshots.length} markets, ${pairs[0]} pairs (${pairs[1]} with the bound); median of ${runs}: ${figures("wall")}; ${figures("cpu")}`);
}

console.log(`price bound (${BOUND}): load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
compare("a round's set", fresh);
compare("a micro-batch of 100 assets", narrow);
const listing: number[] = [];
for (let run = 0; run < runs; run++) listing.push(time(() => strayPriceLegs(fresh, BOUND)).cpu);
console.log(`  the round's list of legs left out (strayPriceLegs over ${fresh.length} markets): median ${ms(median(listing))} cpu`);
console.log(`  at 5 % these widened replays would leave out ${strayPriceLegs(fresh, 0.05).length} of ${fresh.length} legs (each venue's BTC of its own day)`);
console.log(`load after ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
