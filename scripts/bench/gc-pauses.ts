import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";

/** This thread's garbage collections between two moments: how many and how long they stopped it. */
export interface GcPauses {
  /** Scavenges of the young generation. */
  minor: { count: number; ms: number };
  /** Mark-compacts of the whole heap (their final, stopping part: marking runs beside the thread). */
  major: { count: number; ms: number };
}

/**
 * Collects this thread's collections from now on (a `gc` PerformanceObserver); `between(from, to)`
 * sums those that started within [from, to] (performance.now() times), `stop()` ends it. A round's
 * collections stop its thread, so they are part of its time: bench:market prints them per round.
 */
export function gcPauses() {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  return {
    between(from: number, to: number): GcPauses {
      // Entries reach the observer after the collection, on a later turn: take any still queued.
      entries.push(...observer.takeRecords());
      const pauses: GcPauses = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
      for (const entry of entries) {
        if (entry.startTime < from || entry.startTime > to) continue;
        const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
        const sum = kind === constants.NODE_PERFORMANCE_GC_MAJOR ? pauses.major : kind === constants.NODE_PERFORMANCE_GC_MINOR ? pauses.minor : undefined;
        if (!sum) continue;
        sum.count += 1;
        sum.ms += entry.duration;
      }
      return pauses;
    },
    stop() {
      observer.disconnect();
    },
  };
}
