// npm run sample:build — writes lib/market/sample/venue-responses.json, the offline first-run
// market: each venue's recording time and responses in its own format, from the recorded payloads
// in tests/fixtures/venues and lib/market/sample/recordings and the synthetic rows of tests/fixtures/venues/venue-replays.ts.
// lib/market/sample/venue-responses.test.ts fails when the file and its sources disagree.
import { writeFileSync } from "node:fs";
import { sampleMarketFile } from "@/tests/fixtures/venues/sample-venue-responses";

const file = new URL("../lib/market/sample/venue-responses.json", import.meta.url);
writeFileSync(file, `${JSON.stringify(sampleMarketFile(), null, 1)}\n`);
console.log(`Wrote ${file.pathname}`);
