import type { VenueId } from "../../model/types";
import { marketsPerRefresh } from "../venue-request-limits";
import type { FundingObservation } from "./build-snapshot";
import { errorMessage } from "./venue-adapter";

/** How long a market's last answer is served while its turn to be asked again has not come. */
export const KEPT_FOR_MS = 15 * 60_000;

interface Kept {
  /** The last answer, and when the refresh that got it started. */
  observation: FundingObservation | undefined;
  answeredAt: number;
  /** When the refresh that last asked for this market started: whose turn comes next. */
  askedAt: number;
}

/**
 * Each client's markets' last answers, by market id: kept with the client, as its market list is
 * (fetch-venue-snapshot.ts), so a replay's fresh client starts with none.
 */
const keptByClient = new WeakMap<object, Map<string, Kept>>();

/**
 * The observations of venues that state funding only in a per-instrument ticker (GRVT, Derive,
 * Crypto.com): one request per perpetual, at most `marketsPerRefresh(venue)` of them a refresh (what
 * the venue's budget allows in a second, venue-request-limits.ts), those asked longest ago first.
 * The others are served from their last answer, with the venue's own time for it, for up to
 * KEPT_FOR_MS. Asked every ticker, a refresh at 600 perpetuals would take six seconds of GRVT's
 * 100 a second and thirty of Derive's 20, past a refresh's 10 s deadline: stale every round.
 * A failed request leaves its market with its last answer, named in a warning; every request of a
 * refresh failing makes the venue stale.
 */
export async function tickerPerMarket<M extends { id?: string }>(
  venue: VenueId,
  client: object,
  perpetuals: readonly M[],
  fetchedAt: number,
  observe: (market: M) => Promise<FundingObservation>,
): Promise<{ observations: FundingObservation[]; warnings: string[] }> {
  let kept = keptByClient.get(client);
  if (!kept) keptByClient.set(client, (kept = new Map()));
  const asked = turnOf(perpetuals, kept, marketsPerRefresh(venue));
  const answers = await Promise.all(
    asked.map(async (market) => {
      try {
        return { market, observation: await observe(market) };
      } catch (error) {
        return { market, error };
      }
    }),
  );
  const failed: { id: string; error: unknown }[] = [];
  for (const answer of answers) {
    const id = answer.market.id ?? "";
    if (answer.observation) kept.set(id, { observation: answer.observation, answeredAt: fetchedAt, askedAt: fetchedAt });
    else {
      failed.push({ id, error: answer.error });
      const last = kept.get(id);
      kept.set(id, { observation: last?.observation, answeredAt: last?.answeredAt ?? fetchedAt, askedAt: fetchedAt });
    }
  }
  const [first] = failed;
  if (first && failed.length === asked.length) throw first.error;
  const warnings: string[] = [];
  if (first) {
    const ids = failed.slice(0, 5).map((f) => f.id).join(", ") + (failed.length > 5 ? ", …" : "");
    warnings.push(`ticker: ${failed.length} of ${asked.length} failed (${ids}): ${errorMessage(first.error)}`);
  }
  const observations: FundingObservation[] = [];
  const listed = new Set<string>();
  for (const market of perpetuals) {
    const id = market.id ?? "";
    listed.add(id);
    const last = kept.get(id);
    if (last?.observation && fetchedAt - last.answeredAt <= KEPT_FOR_MS) observations.push(last.observation);
  }
  // A market no longer listed is forgotten.
  for (const id of kept.keys()) if (!listed.has(id)) kept.delete(id);
  return { observations, warnings };
}

/** This refresh's turn: up to `most` markets, those never asked first, then those asked longest ago, in list order among equals. */
export function turnOf<M extends { id?: string }>(perpetuals: readonly M[], kept: ReadonlyMap<string, { askedAt: number }>, most: number): M[] {
  if (perpetuals.length <= most) return [...perpetuals];
  const askedAt = perpetuals.map((market) => kept.get(market.id ?? "")?.askedAt ?? Number.NEGATIVE_INFINITY);
  // Positions, stably sorted: markets asked at the same moment keep the list's order.
  const order = perpetuals.map((_, at) => at).sort((a, b) => (askedAt[a]! < askedAt[b]! ? -1 : askedAt[a]! > askedAt[b]! ? 1 : 0));
  return order.slice(0, most).map((at) => perpetuals[at]!);
}
