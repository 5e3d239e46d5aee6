// Child process of the benchmark: creates the embedded database in DATA_DIR (migrating it), inserts
// the keys and the live opportunity set, closes it (PGlite is single-process) and writes the keys'
// secrets to a JSON file. Run apart from the load generator so PGlite's heap never shares its process.
//   node --import tsx scripts/bench/seed.ts <dataDir> <keysFile> <keyCount> <opportunityCount>
import { mkdirSync, writeFileSync } from "node:fs";
import { openDatabase } from "@/lib/db/open-database";
import { generateApiKey } from "@/lib/keys/generate";
import { keyModeToDb } from "@/lib/keys/mode";
import { PERMISSIONS, tierToDb, type Tier } from "@/lib/keys/permissions";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { publish } from "@/lib/market/opportunities/store";
import { benchOpportunities } from "./market-data";

export interface SeededKey {
  secret: string;
  tier: Tier;
}

async function main() {
  const [dataDir, keysFile, keyArg = "200", opportunityArg = "2000"] = process.argv.slice(2);
  if (!dataDir || !keysFile) throw new Error("usage: seed.ts <dataDir> <keysFile> [keys] [opportunities]");
  const keyCount = Number(keyArg);
  const opportunities = benchOpportunities(Number(opportunityArg));

  mkdirSync(dataDir, { recursive: true });
  const opened = await openDatabase({ driver: "pglite", dataDir });
  try {
    const db = opened.db;
    // One user per key: a mix of tiers, two Pro accounts for every Desk one.
    const tiers: Tier[] = Array.from({ length: keyCount }, (_, i) => (i % 3 === 2 ? "desk" : "pro"));
    await db.user.createMany({
      data: tiers.map((tier, i) => ({ email: `bench-${i}@bench.test`, passwordHash: "not-used", tier: tierToDb(tier) })),
    });
    const users = await db.user.findMany({ where: { email: { endsWith: "@bench.test" } }, select: { id: true, email: true } });
    const userIdByEmail = new Map(users.map((u) => [u.email, u.id]));
    const keys = tiers.map((tier, i) => ({ tier, generated: generateApiKey("live"), userId: userIdByEmail.get(`bench-${i}@bench.test`)! }));
    await db.apiKey.createMany({
      data: keys.map(({ generated, userId }) => ({
        userId,
        name: "bench key",
        mode: keyModeToDb(generated.mode),
        prefix: generated.prefix,
        hash: generated.hash,
        permissions: [...PERMISSIONS],
      })),
    });

    // The live set exactly as an ingestion round publishes it.
    const asOf = new Date(Math.min(...opportunities.map((o) => Date.parse(o.updated_at))));
    await publish(db, opportunities, { asOf, sample: false });
    // Read back as every server loads it.
    const stored = (await new LiveOpportunities(async () => db).current()).items.length;
    if (stored !== opportunities.length) throw new Error(`stored ${stored} opportunities, expected ${opportunities.length}`);
    writeFileSync(keysFile, JSON.stringify(keys.map(({ tier, generated }): SeededKey => ({ secret: generated.key, tier }))));
    console.log(`seeded ${keys.length} keys (${tiers.filter((t) => t === "desk").length} Desk) and ${stored} opportunities`);
  } finally {
    await opened.close();
  }
}

main().catch((error) => {
  console.error("seeding failed:", error);
  process.exit(1);
});
