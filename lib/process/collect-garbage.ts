// Full garbage collections when a piece of start-up's work is over. Start-up leaves garbage no
// request would collect soon: Next's and the modules' initialisation, a new data directory's
// migrations, and just after the ready line the sandbox's first tick (server.ts). An idle server
// allocates too little for V8 to collect it by itself (its memory reducer did not run within 45 s of
// an idle start), so without this the garbage stays resident until traffic comes.
// `npm start` runs node with --expose-gc; without the flag this does nothing.

interface CollectOptions {
  /**
   * Collections in a row. One frees the garbage; a second also moves the survivors off the pages
   * the first left sparse, so V8 gives those back: after the sandbox's first tick, V8's heap
   * 111 → 90 MB and RSS ~320 → ~295 MB (docs/operations.md, "Memory").
   */
  passes?: number;
  target?: { gc?: () => void };
}

export function collectGarbage({ passes = 1, target = globalThis as { gc?: () => void } }: CollectOptions = {}): boolean {
  if (typeof target.gc !== "function") return false;
  for (let pass = 0; pass < passes; pass++) target.gc();
  return true;
}
