// What a service that has run a while holds behind a round's markets, for benchmarks that rank
// them (market.ts, micro-batch.ts): a week of hourly roll-ups, a day of settlements, some interval changes.
import type { Db } from "@/lib/db";

const HOUR = 3_600_000;

/**
 * A week of hourly roll-ups (or `hours` of them) and a day of settlements behind every market of the first round, and an
 * interval change 3 days ago on one market in five: what a round reads back for its averages and
 * legs once the service has run a while. Generated server-side, one statement each.
 */
export async function seedRoundHistory(db: Db, roundId: string, now: number, hours = 167) {
  const hour = Math.floor(now / HOUR) * HOUR;
  const started = performance.now();
  const hourly = await db.$executeRawUnsafe(
    `INSERT INTO "FundingRateHourly" (exchange, market, base, hour, samples, "rateSum", "aprSum", "rateMin", "rateMax", "intervalHours", "markPriceLast")
     SELECT s.exchange, s.market, s.base, to_timestamp(${hour / 1000} - h * 3600) AT TIME ZONE 'UTC', 60,
            60 * s."fundingRate", 60 * s."fundingRate" * 8760 / s."fundingIntervalHours" * 100 * (1 + sin(h) / 4),
            s."fundingRate", s."fundingRate", s."fundingIntervalHours", s."markPrice"
     FROM "RoundSnapshot" s, generate_series(1, ${hours}) AS h
     WHERE s."roundId" = $1 AND s."fundingRate" IS NOT NULL AND s."fundingIntervalHours" IS NOT NULL
     ON CONFLICT DO NOTHING`,
    roundId,
  );
  const settlements = await db.$executeRawUnsafe(
    `INSERT INTO "FundingRate" (exchange, market, base, time, rate, "intervalHours", source)
     SELECT s.exchange, s.market, s.base, to_timestamp(${hour / 1000} - h * 3600) AT TIME ZONE 'UTC', s."fundingRate", s."fundingIntervalHours", 'observed'
     FROM "RoundSnapshot" s, generate_series(0, 23) AS h
     WHERE s."roundId" = $1 AND s."fundingRate" IS NOT NULL AND s."fundingIntervalHours" IS NOT NULL
       AND h % s."fundingIntervalHours"::int = 0
     ON CONFLICT DO NOTHING`,
    roundId,
  );
  const changes = await db.$executeRawUnsafe(
    `INSERT INTO "FundingIntervalChange" (exchange, market, base, "effectiveAt", "fromHours", "toHours", source, "detectedAt")
     SELECT s.exchange, s.market, s.base, to_timestamp(${(hour - 72 * HOUR) / 1000}) AT TIME ZONE 'UTC', 8, s."fundingIntervalHours", 'venue',
            to_timestamp(${(hour - 72 * HOUR) / 1000}) AT TIME ZONE 'UTC'
     FROM "RoundSnapshot" s WHERE s."roundId" = $1 AND s."fundingIntervalHours" IS NOT NULL AND abs(hashtext(s.market)) % 5 = 0
     ON CONFLICT DO NOTHING`,
    roundId,
  );
  console.log(
    `  seeded ${hourly.toLocaleString("en")} hourly roll-ups (${hours} hours), ${settlements.toLocaleString("en")} settlements (a day) ` +
      `and ${changes} interval changes in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await settleSeed(db);
}

/**
 * The seed's own aftermath done before anything is measured: a service that ran a week has its
 * tables vacuumed and analysed and no writes of a week pending, whereas millions of rows written
 * in a minute leave autovacuum's pass and ~500 MB of dirty pages, which a default PostgreSQL
 * (max_wal_size 1 GB) checkpoints every ~12 s meanwhile, to come: that work landed in the measured
 * rounds, on the same two cores, and moved their medians by up to a second between runs.
 */
async function settleSeed(db: Db) {
  const started = performance.now();
  for (const table of ["FundingRateHourly", "FundingRate", "FundingIntervalChange"]) await db.$executeRawUnsafe(`VACUUM ANALYZE "${table}"`);
  // CHECKPOINT needs a superuser or pg_checkpoint; without, PostgreSQL's own checkpoints write the seed later.
  const checkpoint = await db.$executeRawUnsafe("CHECKPOINT").then(
    () => "checkpointed",
    (error: unknown) => `not checkpointed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
  );
  console.log(`  the seed vacuumed, analysed and ${checkpoint} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
