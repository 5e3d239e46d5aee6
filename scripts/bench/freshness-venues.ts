// Loaded into the server by `npm run bench:freshness` (node --import, before server.ts, under tsx so
// both share one module graph; the venue thread's boot imports it too, so it runs there as well):
// every venue's REST answers come from its recorded answers widened to FRESHNESS_ASSETS synthetic
// assets (widen-replays.ts), as bench:market replays them, through the real connectors and the
// process's own clients, budgets and throttles. The server has no setting for a replaying fetcher
// (its rounds reach the venues), so the clients are given one here: each ccxt adapter's `create`
// gets the venue's replay as its `fetchImplementation`, and the two HTTP adapters' REST roots are
// answered from theirs in place of the global fetch.
//
// A venue's REST and its stream tell the same state, so the replay does too: each adapter's
// `collect` is wrapped so that, once the recorded answer is parsed, the markets the stream player
// (freshness-streams.ts) plays take the rates and prices its frames have told, asked once per
// collect from the player's `GET /bench-state/<venue>` on the stream override's host (over HTTP,
// since the player runs in the bench's process and this module in each of the server's threads).
// Replaying the recording instead would revert every streamed change each round (thousands of
// markets a minute), a re-ranking no real venue causes. A venue the player does not play, or a state
// that cannot be read, keeps the recorded answer. Nothing else is touched: the streams, their URL
// override (VENUE_STREAM_URL_OVERRIDE) and everything after the fetch are the server's own.
import { VENUE_ADAPTERS } from "@/lib/market/venues/connectors/venue-adapters";
import type { FetchImplementation } from "@/lib/market/venues/connectors/venue-adapter";
import type { StreamFields } from "@/lib/market/venues/streams/stream-protocol";
import { createReplayFetch } from "@/lib/market/venues/replay-fetch";
import { VENUE_IDS, type VenueId } from "@/lib/market/model/types";
import { VENUE_REPLAYS } from "@/tests/fixtures/venues/venue-replay-table";
import { syntheticBases, widenRoutes } from "./widen-replays";
import { wrapCollect } from "./apply-stream-state";

const assets = Number(process.env.FRESHNESS_ASSETS ?? 600);
const bases = syntheticBases(assets);
const replays = new Map<VenueId, FetchImplementation>();
const replayOf = (venue: VenueId): FetchImplementation => {
  let replay = replays.get(venue);
  if (!replay) {
    replay = createReplayFetch(widenRoutes(VENUE_REPLAYS[venue](), bases), { record: false }).fetchImplementation;
    if (venue === "kucoinfutures") replay = withSettlementTimes(replay);
    replays.set(venue, replay);
  }
  return replay;
};

/**
 * KuCoin's recorded contract rows (2023) state the next settlement only as a countdown, which a
 * replay answers unchanged, so every round would move it by the round's clock and make every
 * KuCoin market news at once. Live rows state it as an epoch (`nextFundingRateDateTime`): the
 * widened rows get one, the next whole interval of their granularity.
 */
function withSettlementTimes(replay: FetchImplementation): FetchImplementation {
  return async (url, init) => {
    const response = await replay(url, init);
    if (!url.includes("/api/v1/contracts/active")) return response;
    const body = (await response.json()) as { data?: Record<string, unknown>[] };
    const now = Date.now();
    for (const row of body.data ?? []) {
      const every = Number(row.fundingRateGranularity);
      if (row.nextFundingRateDateTime === undefined && every > 0) row.nextFundingRateDateTime = now - (now % every) + every;
    }
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
}

const networkFetch = globalThis.fetch;
/** The stream player's HTTP root (the override's ws:// as http://), where it answers each venue's state. */
const stateRoot = process.env.VENUE_STREAM_URL_OVERRIDE?.replace(/^ws/, "http").replace(/\/$/, "");

/** What the player's stream has told of each market of `venue`, or undefined (a venue it does not play answers 404). */
async function streamState(venue: VenueId): Promise<Record<string, StreamFields> | undefined> {
  if (!stateRoot) return undefined;
  try {
    const response = await networkFetch(`${stateRoot}/bench-state/${venue}`, { signal: AbortSignal.timeout(5_000) });
    return response.ok ? ((await response.json()) as Record<string, StreamFields>) : undefined;
  } catch {
    return undefined;
  }
}

const httpRoots: [string, VenueId][] = [];
for (const venue of VENUE_IDS) {
  const adapter = VENUE_ADAPTERS[venue] as unknown as { kind?: string; baseUrl?: string; create?: (lib: unknown, config: Record<string, unknown>) => unknown };
  if (adapter.kind === "http" && adapter.baseUrl) {
    httpRoots.push([adapter.baseUrl, venue]);
  } else if (adapter.create) {
    const create = adapter.create.bind(adapter);
    adapter.create = (lib, config) => create(lib, { ...config, fetchImplementation: replayOf(venue) });
  }
  wrapCollect(venue, streamState);
}

globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
  const url = input instanceof Request ? input.url : String(input);
  const root = httpRoots.find(([base]) => url.startsWith(base));
  if (!root) return networkFetch(input, init);
  return replayOf(root[1])(url, { method: init?.method, headers: init?.headers as Record<string, string> | undefined, body: init?.body as string | undefined, signal: init?.signal ?? undefined });
}) as typeof globalThis.fetch;
