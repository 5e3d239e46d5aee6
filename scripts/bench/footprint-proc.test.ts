import { describe, expect, it } from "vitest";
import { MB, parseCpuMs, parsePpid, parsePss, parseStatus, parseWasmMemories } from "./footprint-proc";

const STATUS = `Name:\tnode
VmPeak:\t54168232 kB
VmHWM:\t  331520 kB
VmRSS:\t  301056 kB
RssAnon:\t  252928 kB
RssFile:\t   47104 kB
RssShmem:\t    1024 kB
Threads:\t12
`;

function mapping(range: string, perms: string, rssKb: number, name = "") {
  return `${range} ${perms} 00000000 00:00 0 ${name}\nSize:  1 kB\nRss:  ${rssKb} kB\nPss:  ${rssKb} kB\n`;
}

describe("/proc parsers", () => {
  it("reads resident size, its peak and its parts from status", () => {
    expect(parseStatus(STATUS)).toEqual({ rss: 301056 * 1024, peakRss: 331520 * 1024, anon: 252928 * 1024, file: 47104 * 1024, threads: 12 });
    expect(() => parseStatus("Name:\tnode\n")).toThrow(/VmRSS/);
  });

  it("reads PSS from smaps_rollup", () => {
    expect(parsePss("55f0-7ffd ---p 00000000 00:00 0 [rollup]\nRss:  1000 kB\nPss:   800 kB\nPss_Anon:  700 kB\n")).toBe(800 * 1024);
  });

  it("finds WebAssembly memories by V8's 8 GiB reservation: readable pages, then the guard", () => {
    const smaps = [
      mapping("55f000000000-55f001a00000", "r-xp", 21000, "/usr/bin/node"),
      // 128 MB readable + the rest of 8 GiB: PGlite's heap, 27 MB of it resident.
      mapping("7f4f74000000-7f4f7c000000", "rw-p", 27 * 1024),
      mapping("7f4f7c000000-7f5174000000", "---p", 0),
      // A 2 GiB reservation is something else (V8's own cages).
      mapping("7f5184000000-7f51c4000000", "rw-p", 5000),
      mapping("7f51c4000000-7f5204000000", "---p", 0),
      // 64 MB readable of 8 GiB: a second module's memory.
      mapping("7f6000000000-7f6004000000", "rw-p", 1024),
      mapping("7f6004000000-7f6200000000", "---p", 0),
    ].join("");
    expect(parseWasmMemories(smaps)).toEqual([
      { size: 128 * MB, resident: 27 * MB },
      { size: 64 * MB, resident: 1 * MB },
    ]);
  });

  it("reads the parent pid even when the command name holds spaces and parentheses", () => {
    expect(parsePpid("4242 (node (server) x) S 4100 4242 4100 0 -1 4194560")).toBe(4100);
  });
});

describe("parseCpuMs", () => {
  // Fields 3 to 17 of a stat line: state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt,
  // majflt, cmajflt, utime 250, stime 40, cutime 7, cstime 3 (ticks of 1/100 s).
  const stat = "4242 (node (server) x) S 4100 4242 4100 0 -1 4194560 1 2 3 4 250 40 7 3 20 0 12";

  it("reads user and system time in ms after a command name with spaces and parentheses", () => {
    expect(parseCpuMs(stat)).toBe(2_900);
  });

  it("adds the reaped children's when asked", () => {
    expect(parseCpuMs(stat, true)).toBe(3_000);
  });
});

