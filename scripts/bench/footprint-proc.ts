// What Linux says about a process's memory, read from /proc by `npm run bench:footprint`: resident
// size and its peak, proportional set size (shared pages split between the processes that map them,
// so a process tree's PSS adds up without counting the node binary twice) and the WebAssembly linear
// memories. The parsers are pure and tested on captured text; the readers only add the file reads.
import { readdirSync, readFileSync } from "node:fs";

export const MB = 2 ** 20;

export interface ProcStatus {
  rss: number;
  peakRss: number;
  anon: number;
  file: number;
  threads: number;
}

function kB(text: string, field: string): number {
  const match = text.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
  if (!match) throw new Error(`no ${field} in /proc status`);
  return Number(match[1]) * 1024;
}

/** Bytes from the text of /proc/<pid>/status. */
export function parseStatus(text: string): ProcStatus {
  return {
    rss: kB(text, "VmRSS"),
    peakRss: kB(text, "VmHWM"),
    anon: kB(text, "RssAnon"),
    file: kB(text, "RssFile"),
    threads: Number(text.match(/^Threads:\s+(\d+)/m)?.[1] ?? 0),
  };
}

/** PSS in bytes from the text of /proc/<pid>/smaps_rollup. */
export function parsePss(text: string): number {
  return kB(text, "Pss");
}

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  name: string;
  rss: number;
}

function parseSmaps(text: string): Mapping[] {
  const mappings: Mapping[] = [];
  for (const block of text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const header = block.match(/^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+[ \t]*(.*)$/m);
    if (!header) continue;
    mappings.push({
      start: BigInt(`0x${header[1]}`),
      end: BigInt(`0x${header[2]}`),
      perms: header[3]!,
      name: header[4]!.trim(),
      rss: Number(block.match(/^Rss:\s+(\d+) kB/m)?.[1] ?? 0) * 1024,
    });
  }
  return mappings;
}

export interface WasmMemory {
  /** Bytes the module can address now (its WebAssembly.Memory's size). */
  size: number;
  /** Of those, bytes resident. */
  resident: number;
}

const GiB = 2n ** 30n;
/**
 * V8 reserves every 32-bit WebAssembly memory as one 8 GiB (or, with guard regions, 10 GiB)
 * anonymous region and makes only the pages the memory has grown to readable: in smaps that is an
 * rw-p mapping directly followed by a ---p one, the two adding up to the reservation. Nothing else
 * in a Node process has that shape, so it finds PGlite's heap (and Prisma's query compiler's)
 * without any help from the process.
 */
export function parseWasmMemories(smaps: string): WasmMemory[] {
  const mappings = parseSmaps(smaps);
  const found: WasmMemory[] = [];
  for (let i = 0; i + 1 < mappings.length; i++) {
    const used = mappings[i]!;
    const guard = mappings[i + 1]!;
    if (used.name || guard.name || !used.perms.startsWith("rw") || !guard.perms.startsWith("---") || used.end !== guard.start) continue;
    const reserved = guard.end - used.start;
    if (reserved !== 8n * GiB && reserved !== 10n * GiB) continue;
    found.push({ size: Number(used.end - used.start), resident: used.rss });
  }
  return found.sort((a, b) => b.size - a.size);
}

/**
 * The fields of a /proc/<pid>/stat line after the command name, the state (field 3) first. The name
 * is in parentheses and may itself hold spaces or parentheses, so it ends at the last `)`.
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The children of each process, from the ppid field of /proc/<pid>/stat. */
export function parsePpid(stat: string): number {
  return Number(statFields(stat)[1]);
}

/** Linux reports CPU time in USER_HZ ticks, 100 a second. */
const MS_PER_TICK = 10;

/**
 * The CPU time a /proc stat line reports, in ms: user and system (fields 14 and 15), and with
 * `withChildren` those of the children it reaped (16 and 17).
 */
export function parseCpuMs(stat: string, withChildren = false): number {
  const field = (n: number) => Number(statFields(stat)[n - 3]);
  return (field(14) + field(15) + (withChildren ? field(16) + field(17) : 0)) * MS_PER_TICK;
}

/** `parseCpuMs` of a process's or a thread's stat file (/proc/<pid>/stat, /proc/<pid>/task/<tid>/stat). */
export function readCpuMs(statPath: string, withChildren = false): number {
  return parseCpuMs(readFileSync(statPath, "utf8"), withChildren);
}

export function readStatus(pid: number): ProcStatus {
  return parseStatus(readFileSync(`/proc/${pid}/status`, "utf8"));
}

export function readPss(pid: number): number {
  return parsePss(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
}

export function readWasmMemories(pid: number): WasmMemory[] {
  return parseWasmMemories(readFileSync(`/proc/${pid}/smaps`, "utf8"));
}

/** `pid` and all its descendants alive now. */
export function processTree(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parentOf.set(Number(entry), parsePpid(readFileSync(`/proc/${entry}/stat`, "utf8")));
    } catch {
      // exited meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parentOf) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** Total PSS of `pid` and its descendants (processes that exit meanwhile count as nothing). */
export function treePss(pid: number): number {
  let total = 0;
  for (const member of processTree(pid)) {
    try {
      total += readPss(member);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
}
