import { readFile } from "node:fs/promises";
import { readBorrowRates, type BorrowEndpoint } from "../carry/read-borrow-rates";
import { readSpotTickers, type SpotTickerVenue } from "../carry/read-spot-tickers";
import { spotLegOf } from "../carry/spot-leg-of";
import type { SpotLeg } from "../carry/spot-leg";

const SAMPLE_CARRY_FILE = new URL("./carry-responses.json", import.meta.url);

/** One spot venue's answers in the bundled sample: its ticker answer, and a borrow-rate answer where one was recorded. */
export interface SampleCarryVenue {
  venue: SpotTickerVenue;
  /** ISO 8601 UTC: the moment the ticker answer states (its borrow answer, which states none, is dated with it). */
  recordedAt: string;
  tickers: unknown;
  borrow?: { endpoint: BorrowEndpoint; body: unknown; asset?: string };
}

/**
 * What carry-responses.json holds. Built by `npm run sample:build` from the carry recordings
 * (tests/fixtures/carry, whose SOURCES.md says where each came from).
 */
export interface SampleCarryFile {
  venues: SampleCarryVenue[];
}

/**
 * The offline sample's spot legs: each venue's recorded ticker answer read by the same readers as
 * live answers, each leg with its venue's recorded borrow rate for its asset where there is one.
 */
export async function readSampleSpotLegs(file: URL = SAMPLE_CARRY_FILE): Promise<SpotLeg[]> {
  const sample = JSON.parse(await readFile(file, "utf8")) as SampleCarryFile;
  return sample.venues.flatMap(({ venue, recordedAt, tickers, borrow }) => {
    const rates = borrow ? readBorrowRates(borrow.endpoint, borrow.body, recordedAt, borrow.asset) : [];
    return readSpotTickers(venue, tickers).map((row) => {
      const leg = spotLegOf(venue, row, { observedAt: recordedAt, borrow: null });
      return { ...leg, borrow: rates.find((rate) => rate.asset === leg.base) ?? null };
    });
  });
}
