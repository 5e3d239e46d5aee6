// What V8's optimising compiler did in each of bench:market's measured rounds, read from the log of
// a run with V8's own traces and the bench's round markers:
//
//   node --max-semi-space-size=64 --trace-opt --trace-deopt --import tsx scripts/bench/market.ts --mark-rounds … > run.log
//   node --import tsx scripts/bench/compiler-time.ts run.log [--from=4]
//
// Code V8 throws away (a deoptimisation, or a closure's code let go) is compiled again, on the
// process's other threads, beside the round on the same cores: ~550 ms of CPU a round over the
// bench's measured rounds (docs/bench-market-rounds.md). A whole round's time does not show a
// change of ~100 ms through this machine's noise; the compiler's time does.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { intOption } from "./bench-args";

export interface RoundCompiles {
  round: number;
  compilations: number;
  /** The three phases --trace-opt reports for each compilation, summed. */
  compilerMs: number;
  deoptimisations: number;
}

export interface CompilerTime {
  rounds: RoundCompiles[];
  /** Compiler ms by function ("(anonymous)" where V8 names none; " OSR" for a loop's entry), over rounds from `from`, most first. */
  byFunction: { name: string; compilations: number; compilerMs: number }[];
}

const ROUND = /^ROUND (\d+)$/;
const COMPILED = /^\[completed compiling 0x[0-9a-f]+ <JSFunction ?([^ (>]*)[^>]*> \(target TURBOFAN\)( OSR)? - took ([\d.]+), ([\d.]+), ([\d.]+) ms\]/;
const DEOPTIMISED = /^\[bailout \(kind: deopt-/;

/** Each marked round's compilations and deoptimisations, and the functions compiled in rounds `from` on. Lines before the first marker and after `ROUND END` are not counted. */
export function compilerTime(log: string, from = 0): CompilerTime {
  const rounds: RoundCompiles[] = [];
  const byFunction = new Map<string, { compilations: number; compilerMs: number }>();
  let current: RoundCompiles | undefined;
  for (const line of log.split("\n")) {
    if (line === "ROUND END") {
      current = undefined;
      continue;
    }
    const marker = ROUND.exec(line);
    if (marker) {
      current = { round: Number(marker[1]), compilations: 0, compilerMs: 0, deoptimisations: 0 };
      rounds.push(current);
      continue;
    }
    if (!current) continue;
    if (DEOPTIMISED.test(line)) {
      current.deoptimisations += 1;
      continue;
    }
    const compiled = COMPILED.exec(line);
    if (!compiled) continue;
    const ms = Number(compiled[3]) + Number(compiled[4]) + Number(compiled[5]);
    current.compilations += 1;
    current.compilerMs += ms;
    if (current.round < from) continue;
    const name = `${compiled[1] || "(anonymous)"}${compiled[2] ?? ""}`;
    const held = byFunction.get(name) ?? { compilations: 0, compilerMs: 0 };
    byFunction.set(name, { compilations: held.compilations + 1, compilerMs: held.compilerMs + ms });
  }
  return {
    rounds,
    byFunction: [...byFunction].map(([name, figures]) => ({ name, ...figures })).sort((a, b) => b.compilerMs - a.compilerMs),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: compiler-time.ts LOG [--from=4]");
  const from = intOption("from", 4, 0);
  const { rounds, byFunction } = compilerTime(readFileSync(file, "utf8"), from);
  if (rounds.length === 0) throw new Error(`${file} has no ROUND markers: run bench:market with --mark-rounds`);
  for (const r of rounds) console.log(`round ${r.round}: ${r.compilations} compilations, ${r.compilerMs.toFixed(0)} ms of compiler time, ${r.deoptimisations} deoptimisations`);
  const later = rounds.filter((r) => r.round >= from);
  const total = later.reduce((sum, r) => sum + r.compilerMs, 0);
  console.log(`rounds ${from}–${rounds.at(-1)!.round}: ${later.reduce((n, r) => n + r.compilations, 0)} compilations, ${total.toFixed(0)} ms (${(total / Math.max(1, later.length)).toFixed(0)} ms a round)`);
  for (const f of byFunction.slice(0, 15)) console.log(`  ${f.compilerMs.toFixed(1).padStart(8)} ms ${String(f.compilations).padStart(4)}× ${f.name}`);
}
