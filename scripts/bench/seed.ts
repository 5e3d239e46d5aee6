// Child process of the benchmark: creates the embedded database in DATA_DIR (migrating it), inserts
// the keys and the live opportunity set, closes it (PGlite is single-process) and writes the keys'
// secrets to a JSON file. Run apart from the load generator so PGlite's heap never shares its process.
//   node --import tsx scripts/bench/seed.ts <dataDir> <keysFile> <keyCount> <opportunityCount>
import { mkdirSync, writeFileSync } from "node:fs";
import { openDatabase } from "@/lib/db/open-database";
import type { Tier } from "@/lib/keys/permissions";
import { LiveOpportunities } from "@/lib/market/opportunities/live-opportunities";
import { seedAccountsWithKeys } from "@/tests/support/seed-accounts";
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
    const keys = await seedAccountsWithKeys(db, tiers, { name: "bench", domain: "bench.test", keyName: "bench key" });

    // The live set exactly as an ingestion round publishes it.
    const asOf = new Date(Math.min(...opportunities.map((o) => Date.parse(o.updated_at))));
    await publish(db, opportunities, { asOf, sample: false });
    // Read back as every server loads it.
    const stored = (await new LiveOpportunities(async () => db).current()).count;
    if (stored !== opportunities.length) throw new Error(`stored ${stored} opportunities, expected ${opportunities.length}`);
    writeFileSync(keysFile, JSON.stringify(keys.map(({ tier, secret }): SeededKey => ({ secret, tier }))));
    console.log(`seeded ${keys.length} keys (${tiers.filter((t) => t === "desk").length} Desk) and ${stored} opportunities`);
  } finally {
    await opened.close();
  }
}

main().catch((error) => {
  console.error("seeding failed:", error);
  process.exit(1);
});
