import type { Db } from "@/lib/db";
import { directSql } from "@/lib/db/direct-sql";
import { logger } from "@/lib/observability/logger";
import { fetchSpotLegs, type FetchSpotLegsOptions, type SpotVenueResult } from "../carry/fetch-spot-legs";
import type { SpotLeg } from "../carry/spot-leg";
import type { MarketSnapshot } from "../model/types";
import type { LegHistory } from "../opportunities/rank-opportunities";
import { roundSpotVenues, spotVenueSummary, storeBorrowRates } from "./borrow-rate-store";

/** The spot venues' fetch a round runs beside its perp fetch, under the round's venue timeout. */
export type SpotFetcher = (options: { timeoutMs: number }) => Promise<SpotVenueResult[]>;

/** The network spot fetcher, or one replaying through `fetchImplementation` (tests, benchmarks). */
export function spotFetcher(base: Omit<FetchSpotLegsOptions, "timeoutMs"> = {}): SpotFetcher {
  return ({ timeoutMs }) => fetchSpotLegs({ ...base, timeoutMs });
}

export type SpotLegsListener = (spots: readonly SpotLeg[], perps: readonly MarketSnapshot[], at: Date, legHistory?: LegHistory) => void | Promise<void>;

/**
 * The spot half of a published round: each spot venue's answer recorded on the round (stale ones
 * logged, as a stale perp venue is), the borrow rates stored hourly, and the legs handed on. Spot
 * data is not the published set's, so nothing here fails the round: a failure is logged, and the
 * summary is null when the fetch itself failed.
 */
export async function finishSpotRound(
  db: Db,
  roundId: string,
  fetching: Promise<SpotVenueResult[]>,
  perps: readonly MarketSnapshot[],
  at: Date,
  onSpotLegs: SpotLegsListener | undefined,
  legHistory?: LegHistory,
): Promise<ReturnType<typeof spotVenueSummary> | null> {
  const log = logger("ingest");
  let results: SpotVenueResult[];
  try {
    results = await fetching;
  } catch (error) {
    log.error({ err: error, roundId }, "fetching the spot venues failed");
    return null;
  }
  for (const result of results) {
    if (result.status === "stale") log.warn({ roundId, venue: result.venue, error: result.error }, `spot venue ${result.venue} is stale this round`);
  }
  await Promise.all([directSql(db).query(roundSpotVenues(roundId, results)), storeBorrowRates(db, results, at)]).catch((error: unknown) =>
    log.error({ err: error, roundId }, "storing the round's spot venues and borrow rates failed"),
  );
  // As a round whose every perp venue is stale keeps the previous perp set: with no spot venue
  // answering, a carry set ranked now would be empty and replace the one served.
  if (!results.some((r) => r.status === "ok")) {
    log.warn({ roundId }, "no spot venue answered this round: the carry set stays as it was");
    return spotVenueSummary(results);
  }
  const legs = results.flatMap((r) => (r.status === "ok" ? r.legs : []));
  await Promise.resolve()
    .then(() => onSpotLegs?.(legs, perps, at, legHistory))
    .catch((error: unknown) => log.error({ err: error, roundId }, "handing on the round's spot legs failed"));
  return spotVenueSummary(results);
}
