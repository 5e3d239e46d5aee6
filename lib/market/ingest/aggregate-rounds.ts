import type { Db } from "@/lib/db";

/** A round still "running" this long after it started was killed; its stored rows are real data. */
const ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Folds one round's observations into FundingRateHourly and marks the round aggregated, in one
 * transaction, so a round is counted once however often this runs. Sums add up under ON CONFLICT,
 * so several rounds of one hour fold into the same row.
 */
export async function aggregateRound(db: Db, roundId: string, aggregatedAt = new Date()): Promise<void> {
  await db.$transaction([
    db.$executeRaw`
      INSERT INTO "FundingRateHourly" AS h
        (exchange, market, base, hour, samples, "rateSum", "aprSum", "rateMin", "rateMax", "intervalHours", "markPriceLast")
      SELECT exchange, market, max(base), date_trunc('hour', "observedAt"), count(*)::int,
             sum("fundingRate"), sum("fundingRate" * 8760 / "fundingIntervalHours" * 100),
             min("fundingRate"), max("fundingRate"),
             (array_agg("fundingIntervalHours" ORDER BY "observedAt" DESC))[1],
             (array_agg("markPrice" ORDER BY "observedAt" DESC))[1]
      FROM "RoundSnapshot"
      WHERE "roundId" = ${roundId} AND "fundingRate" IS NOT NULL AND "fundingIntervalHours" IS NOT NULL
      GROUP BY exchange, market, date_trunc('hour', "observedAt")
      ON CONFLICT (hour, exchange, market) DO UPDATE SET
        samples = h.samples + EXCLUDED.samples,
        "rateSum" = h."rateSum" + EXCLUDED."rateSum",
        "aprSum" = h."aprSum" + EXCLUDED."aprSum",
        "rateMin" = LEAST(h."rateMin", EXCLUDED."rateMin"),
        "rateMax" = GREATEST(h."rateMax", EXCLUDED."rateMax"),
        "intervalHours" = EXCLUDED."intervalHours",
        "markPriceLast" = EXCLUDED."markPriceLast"`,
    db.ingestionRound.update({ where: { id: roundId }, data: { aggregatedAt } }),
  ]);
}

/**
 * Aggregates every round not yet aggregated that can no longer change: finished ones, and
 * "running" ones old enough to have been killed. Retention calls this before deleting anything.
 */
export async function aggregatePendingRounds(db: Db, now = new Date()): Promise<number> {
  const rounds = await db.ingestionRound.findMany({
    where: {
      aggregatedAt: null,
      OR: [{ status: { not: "running" } }, { startedAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_MS) } }],
    },
    orderBy: { startedAt: "asc" },
    select: { id: true },
  });
  for (const round of rounds) await aggregateRound(db, round.id, now);
  return rounds.length;
}

/** Closes rounds left "running" by a killed process, so no reader mistakes them for live progress. */
export async function closeAbandonedRounds(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.ingestionRound.updateMany({
    where: { status: "running", startedAt: { lt: new Date(now.getTime() - ABANDONED_AFTER_MS) } },
    data: { status: "abandoned", finishedAt: now, error: "the process running this round stopped before it finished" },
  });
  return count;
}
