// Loaded into the server by `npm run bench:freshness` (node --import, before server.ts, under tsx so
// both share one module graph): every venue's REST answers come from its recorded answers widened
// to FRESHNESS_ASSETS synthetic assets (widen-replays.ts), as bench:market replays them, through the
// real connectors and the process's own clients, budgets and throttles. The server has no setting
// for a replaying fetcher (its rounds reach the venues), so the clients are given one here: each
// ccxt adapter's `create` gets the venue's replay as its `fetchImplementation`, and the two HTTP
// adapters' REST roots are answered from theirs in place of the global fetch. Nothing else is
// touched: the streams, their URL override (VENUE_STREAM_URL_OVERRIDE) and everything after the
// fetch are the server's own.
import { VENUE_ADAPTERS } from "@/lib/market/venues/connectors/venue-adapters";
import type { FetchImplementation } from "@/lib/market/venues/connectors/venue-adapter";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { syntheticBases, widenRoutes } from "./widen-replays";

const assets = Number(process.env.FRESHNESS_ASSETS ?? 600);
const bases = syntheticBases(assets);
const replays = new Map<VenueId, FetchImplementation>();
const replayOf = (venue: VenueId): FetchImplementation => {
  let replay = replays.get(venue);
  if (!replay) {
    replay = createReplayFetch(widenRoutes(VENUE_REPLAYS[venue](), bases), { record: false }).fetchImplementation;
    replays.set(venue, replay);
  }
  return replay;
};

const httpRoots: [string, VenueId][] = [];
for (const venue of VENUE_IDS) {
  const adapter = VENUE_ADAPTERS[venue] as unknown as { kind?: string; baseUrl?: string; create?: (lib: unknown, config: Record<string, unknown>) => unknown };
  if (adapter.kind === "http" && adapter.baseUrl) {
    httpRoots.push([adapter.baseUrl, venue]);
  } else if (adapter.create) {
    const create = adapter.create.bind(adapter);
    adapter.create = (lib, config) => create(lib, { ...config, fetchImplementation: replayOf(venue) });
  }
}

const networkFetch = globalThis.fetch;
globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input);
  const root = httpRoots.find(([base]) => url.startsWith(base));
  if (!root) return networkFetch(input, init);
  return replayOf(root[1])(url, { method: init?.method, headers: init?.headers as Record<string, string> | undefined, body: init?.body as string | undefined, signal: init?.signal ?? undefined });
}) as typeof globalThis.fetch;
