// npm run sample:build — writes lib/market/sample/venue-responses.json, the offline first-run
// market: each venue's recording time and responses in its own format, from the recorded payloads
// in tests/fixtures/venues and lib/market/sample/recordings and the synthetic rows of tests/fixtures/venues/venue-replays.ts;
// and lib/market/sample/carry-responses.json, its spot venues' ticker and borrow answers, from tests/fixtures/carry.
// lib/market/sample/venue-responses.test.ts fails when the files and their sources disagree.
import { writeFileSync } from "node:fs";
import { sampleMarketFile } from "@/tests/fixtures/venues/sample-venue-responses";
import { sampleCarryFile } from "@/tests/fixtures/carry/sample-carry-responses";

const file = new URL("../lib/market/sample/venue-responses.json", import.meta.url);
writeFileSync(file, `${JSON.stringify(sampleMarketFile(), null, 1)}\n`);
console.log(`Wrote ${file.pathname}`);

const carryFile = new URL("../lib/market/sample/carry-responses.json", import.meta.url);
writeFileSync(carryFile, `${JSON.stringify(sampleCarryFile(), null, 1)}\n`);
console.log(`Wrote ${carryFile.pathname}`);
