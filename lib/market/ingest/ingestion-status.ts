import { z } from "zod";
import type { Db } from "@/lib/db";
import { VENUE_IDS } from "../types";
import { VENUE_NAMES } from "../venue-names";

const iso = z.iso.datetime().nullable();

export const venueStatusSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(["ok", "stale"]),
  last_success_at: iso,
  last_error: z.string().nullable(),
  markets_count: z.number().int().nonnegative(),
});

export const roundStatusSchema = z.object({
  id: z.string(),
  status: z.enum(["running", "published", "failed", "abandoned"]),
  started_at: z.iso.datetime(),
  finished_at: iso,
  venues_done: z.number().int().nonnegative(),
  venues_total: z.number().int().positive(),
  opportunities: z.number().int().nonnegative().nullable(),
  venues: z.array(
    z.object({
      exchange: z.string(),
      status: z.enum(["ok", "stale"]),
      markets: z.number().int().nonnegative(),
      error: z.string().nullable(),
      duration_ms: z.number().nonnegative(),
    }),
  ),
});

export const ingestionStatusSchema = z.object({
  venues: z.array(venueStatusSchema),
  last_round: roundStatusSchema.nullable(),
});
export type IngestionStatus = z.infer<typeof ingestionStatusSchema>;

/**
 * Venue health and the latest round as stored by the rounds, so every process reports the same.
 * A venue whose last success is older than `staleAfterMs` is stale even if its last word was "ok":
 * that is what a dead worker looks like from here.
 */
export async function readIngestionStatus(db: Db, staleAfterMs: number, now = Date.now()): Promise<IngestionStatus> {
  const [health, round] = await Promise.all([
    db.venueHealth.findMany(),
    db.ingestionRound.findFirst({ orderBy: { startedAt: "desc" } }),
  ]);
  const byId = new Map(health.map((h) => [h.id, h]));
  const venues = VENUE_IDS.map((id) => {
    const h = byId.get(id);
    const fresh = h?.status === "ok" && h.lastSuccessAt !== null && now - h.lastSuccessAt.getTime() <= staleAfterMs;
    return {
      id,
      name: VENUE_NAMES[id],
      status: fresh ? ("ok" as const) : ("stale" as const),
      last_success_at: h?.lastSuccessAt?.toISOString() ?? null,
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
