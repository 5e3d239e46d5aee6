// Seeds an embedded data directory with the bundled offline sample, as a server's first start does
// when it may ingest (the e2e servers may not: INGEST_DISABLED), for the screener spec's check that
// sample rows are marked:
//   node --import tsx e2e/helpers/seed-sample-market.ts <data dir>
import { openDatabase } from "@/lib/db/open-database";
import { publishSampleIfNeverLive } from "@/lib/market/ingest/publish-sample-market";

async function main() {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: seed-sample-market.ts <data dir>");
  const opened = await openDatabase({ driver: "pglite", dataDir });
  try {
    const published = await publishSampleIfNeverLive(opened.db);
    if (published === null) throw new Error(`${dataDir} already holds a published set`);
    console.log(`published the sample: ${published} opportunities`);
  } finally {
    await opened.close();
  }
}

await main();
