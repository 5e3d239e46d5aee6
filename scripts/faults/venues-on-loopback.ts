// Preloaded (`--import`) into a process the fault runner starts: every request the process makes
// with the global fetch goes to the loopback server named by FAULT_VENUE_ORIGIN, path and query
// kept, so a production entry point (here `npm run backfill`) runs unchanged against a venue the
// runner replays, and nothing leaves the machine.
export {};

const origin = process.env.FAULT_VENUE_ORIGIN;
if (!origin) throw new Error("venues-on-loopback: FAULT_VENUE_ORIGIN is required");

const networkFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const asked = new URL(input instanceof Request ? input.url : String(input));
  return networkFetch(new URL(`${asked.pathname}${asked.search}`, origin), init);
};
