/**
 * A fixed piece of the work a round does (parse a venue-like answer, index it by market, compute
 * each market's annualised rate into a typed array, sort), timed: what this machine takes for it
 * now. The same code on two machines, or on one at two moments, differs by its speed alone, so a
 * bench run that prints it beside its figures can be set against another run's: this machine's
 * speed moves by a third or more within minutes (docs/operations.md). Not a target; a reference. Timed in a
 * fresh process (machineSpeedInChild), so a bench's own heap and threads do not weigh on it.
 */
import { execFileSync } from "node:child_process";

const ROWS = 50_000;
const ANSWER = JSON.stringify(
  Array.from({ length: ROWS }, (_, i) => ({ symbol: `A${i}/USDT:USDT`, fundingRate: String(((i % 97) - 48) / 1e5), markPrice: String(100 + (i % 1000) / 7), interval: 1 + (i % 3) * 3.5 })),
);

/** One run of the workload; its answer (the same every run) keeps the work from being skipped. */
export function referenceWorkload(): number {
  const rows = JSON.parse(ANSWER) as { symbol: string; fundingRate: string; markPrice: string; interval: number }[];
  const bySymbol = new Map<string, { rate: number; mark: number; interval: number }>();
  for (const row of rows) bySymbol.set(row.symbol, { rate: Number(row.fundingRate), mark: Number(row.markPrice), interval: row.interval });
  const aprs = new Float64Array(rows.length);
  let marks = 0;
  let at = 0;
  for (const row of rows) {
    const market = bySymbol.get(row.symbol)!;
    aprs[at++] = ((market.rate * 8760) / market.interval) * 100;
    marks += market.mark;
  }
  aprs.sort();
  return Math.round(aprs[aprs.length - 1]! * 1e6) + Math.round(marks);
}

/** The workload's median time over `runs` runs after two unmeasured ones, in ms. */
export function machineSpeedMs(runs = 9): number {
  referenceWorkload();
  referenceWorkload();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    referenceWorkload();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

/** machineSpeedMs in a new node process, with no other work in it. */
export function machineSpeedInChild(): number {
  const printed = execFileSync(process.execPath, ["--import", "tsx", import.meta.filename], { encoding: "utf8" });
  const ms = Number(printed.trim());
  if (!Number.isFinite(ms)) throw new Error(`machine-speed.ts printed ${printed}`);
  return ms;
}

if (process.argv[1] === import.meta.filename) console.log(machineSpeedMs().toFixed(2));
