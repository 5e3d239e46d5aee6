import { computeOpportunities } from "@/lib/market/apr";
import { packItems, unpackItems } from "@/lib/market/opportunity-set-items";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
const V = 22, A = Number(process.argv[2] ?? 600);
const snaps = [];
for (let a = 0; a < A; a++) for (let v = 0; v < V; v++) snaps.push(makeSnapshot({ exchange: `v${String.fromCharCode(97+v)}`, base: `A${String(a).padStart(4,"0")}`, fundingRate: Math.sin(a*7.1+v*3.3)*0.0004, predictedFundingRate: 0.0001, rateCap: 0.003, rateFloor: -0.003 }));
for (let i = 0; i < 3; i++) {
let t = performance.now();
const { opportunities } = computeOpportunities(snaps);
const t1 = performance.now();
const packed = packItems(opportunities);
const t3 = performance.now();
const back = unpackItems(packed);
const t4 = performance.now();
console.log(opportunities.length, "opps; rank", (t1-t).toFixed(0), "pack", (t3-t1).toFixed(0), "MB", (packed.length/1e6).toFixed(1), "unpack+validate", (t4-t3).toFixed(0), back.length, "rss", (process.memoryUsage().rss/1e6).toFixed(0));
}
