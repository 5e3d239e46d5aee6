// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time by function,
// self time by area (package / node internals / project code), and inclusive time of the project's
// and the HTTP stack's own frames. Samples can be limited to a window of CLOCK_MONOTONIC µs — the
// clock both V8's profiler and process.hrtime read — so server start-up does not count.
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Row {
  name: string;
  ms: number;
  pct: number;
}

export interface ProfileSummary {
  windowed: boolean;
  sampledMs: number;
  busyMs: number;
  special: Row[];
  selfTop: Row[];
  areas: Row[];
  inclusiveTop: Row[];
}

const SPECIAL = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);

function shortUrl(url: string, root: string): string {
  let u = url.replace(/^file:\/\//, "");
  const nm = u.lastIndexOf("/node_modules/");
  if (nm >= 0) return u.slice(nm + 1);
  if (u.startsWith(root)) u = u.slice(root.length + 1);
  return u;
}

function frameKey(frame: CallFrame, root: string): string {
  if (SPECIAL.has(frame.functionName)) return frame.functionName;
  const name = frame.functionName || "(anonymous)";
  if (!frame.url) return `${name} [native]`;
  const url = shortUrl(frame.url, root);
  // Project files run through tsx's transform, whose line numbers say nothing about the source.
  const ownCode = frame.url.includes(root) && !url.startsWith("node_modules/");
  return ownCode ? `${name} ${url}` : `${name} ${url}:${frame.lineNumber + 1}`;
}

function areaOf(frame: CallFrame, root: string): string {
  if (SPECIAL.has(frame.functionName)) return frame.functionName;
  const url = frame.url.replace(/^file:\/\//, "");
  if (!url) return "V8 builtins / native (JSON.stringify, RegExp, crypto…)";
  const nm = url.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const parts = url.slice(nm + "/node_modules/".length).split("/");
    return `node_modules/${parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  if (url.startsWith("node:")) {
    const parts = url.split("/");
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : url;
  }
  if (url.startsWith(root)) {
    const rel = url.slice(root.length + 1);
    const parts = rel.split("/");
    return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : rel;
  }
  return url;
}

/** Project code and the HTTP stack: the frames whose inclusive time says which step costs what. */
function isInteresting(frame: CallFrame, root: string): boolean {
  const url = frame.url.replace(/^file:\/\//, "");
  if (!url) return false;
  if (url.startsWith(root) && !url.includes("/node_modules/") && !url.includes("/lib/db/generated/")) return true;
  return /node_modules\/(hono|@hono\/node-server|zod)\//.test(url);
}

export function summariseProfile(
  file: string,
  options: { root: string; windowUs?: [number, number]; top?: number },
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const top = options.top ?? 15;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Time of sample i: startTime + Σ timeDeltas[0..i]; its weight is the gap to the next sample.
  let at = profile.startTime;
  const times = profile.samples.map((_, i) => (at += profile.timeDeltas[i] ?? 0));
  const weight = (i: number) => Math.max(0, (times[i + 1] ?? profile.endTime) - (times[i] ?? profile.endTime));

  let windowed = false;
  let [from, to] = [-Infinity, Infinity];
  if (options.windowUs) {
    const [a, b] = options.windowUs;
    // Only trust the window if it falls inside the profile (same clock); otherwise use everything.
    if (a >= profile.startTime && b <= profile.endTime + 1_000_000 && b > a) {
      [from, to] = [a, b];
      windowed = true;
    }
  }

  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((nodeId, i) => {
    const t = times[i]!;
    if (t < from || t > to) return;
    const w = weight(i);
    total += w;
    const node = byId.get(nodeId);
    if (!node) return;
    const key = frameKey(node.callFrame, options.root);
    self.set(key, (self.get(key) ?? 0) + w);
    const area = areaOf(node.callFrame, options.root);
    areas.set(area, (areas.get(area) ?? 0) + w);
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame || !isInteresting(frame, options.root)) continue;
      const k = frameKey(frame, options.root);
      if (seen.has(k)) continue; // recursion counts once per sample
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + w);
    }
  });

  const idle = self.get("(idle)") ?? 0;
  const busy = total - idle;
  const rows = (map: Map<string, number>, filter: (name: string) => boolean, n: number): Row[] =>
    [...map]
      .filter(([name]) => filter(name))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: us / 1000, pct: busy > 0 ? (100 * us) / busy : 0 }));
  return {
    windowed,
    sampledMs: total / 1000,
    busyMs: busy / 1000,
    special: rows(self, (name) => SPECIAL.has(name) && name !== "(idle)", 4),
    selfTop: rows(self, (name) => name !== "(idle)", top),
    areas: rows(areas, (name) => name !== "(idle)", 12),
    inclusiveTop: rows(inclusive, () => true, top),
  };
}

/** A summary's three tables (self time, areas, inclusive time of the project's frames) as lines to print. */
export function profileTables(summary: ProfileSummary): string[] {
  const tables = [["top self time", summary.selfTop], ["by area", summary.areas], ["inclusive, project and Hono", summary.inclusiveTop]] as const;
  return tables.flatMap(([title, rows]) => [`  ${title}:`, ...rows.map((row) => `    ${row.ms.toFixed(0).padStart(7)} ms ${row.pct.toFixed(1).padStart(5)} %  ${row.name}`)]);
}
