import { z } from "zod";
import type { Db } from "@/lib/db";
import { ingestionStatusSchema, roundStatusSchema, venueFreshness, type IngestionStatus } from "../model/venue-status";
import { VENUE_IDS } from "../model/types";
import { VENUE_NAMES } from "../venues/venue-names";

/** Venue health and the latest round as stored by the rounds, so every process reports the same. */
export async function readIngestionStatus(db: Db, staleAfterMs: number, now = Date.now()): Promise<IngestionStatus> {
  const [health, round] = await Promise.all([
    db.venueHealth.findMany(),
    db.ingestionRound.findFirst({ orderBy: { startedAt: "desc" } }),
  ]);
  const byId = new Map(health.map((h) => [h.id, h]));
  const venues = VENUE_IDS.map((id) => {
    const h = byId.get(id);
    const { status, data_age_seconds, stale_after_seconds } = venueFreshness(h, staleAfterMs, now);
    return {
      id,
      name: VENUE_NAMES[id],
      status,
      last_success_at: h?.lastSuccessAt?.toISOString() ?? null,
      data_age_seconds,
      stale_after_seconds,
      last_error: h?.lastError ?? (h ? null : "no round has reached this venue yet"),
      markets_count: h?.marketsCount ?? 0,
    };
  });
  const roundVenues = round ? z.array(roundStatusSchema.shape.venues.element).catch([]).parse(round.venues) : [];
  return ingestionStatusSchema.parse({
    venues,
    last_round: round && {
      id: round.id,
      status: round.status,
      started_at: round.startedAt.toISOString(),
      finished_at: round.finishedAt?.toISOString() ?? null,
      venues_done: roundVenues.length,
      venues_total: VENUE_IDS.length,
      opportunities: round.opportunities,
      venues: roundVenues,
    },
  });
}
