import type { Db } from "@/lib/db";
import type { HistoryIo, VenueHistoryReader } from "../history-types";
import { progressLine } from "./backfill-args";
import { venueProgress } from "./backfill-progress";
import { cursorGroups, latestVenueMarkets, seedCursors } from "./backfill-store";
import { backfillVenue, type BackfillEvent } from "./backfill-venue";

/** Where the CLI writes: a terminal gets bars redrawn in place, anything else a line per market. */
export interface CliOutput {
  write(text: string): void;
  isTTY: boolean;
}

export interface CliBackfillOptions {
  db: Db;
  venues: readonly string[];
  since: number;
  readerFor: (exchange: string) => VenueHistoryReader;
  ioFor: (reader: VenueHistoryReader) => HistoryIo;
  out: CliOutput;
  signal?: AbortSignal;
  now?: () => number;
  /** How often a terminal's bars are redrawn. */
  redrawMs?: number;
}

const BAR = 30;

/**
 * The operator's backfill (`npm run backfill`): every venue asked at once, each market of its latest
 * round, failed markets tried again, progress per venue drawn from the cursors.
 */
export async function runCliBackfill(options: CliBackfillOptions): Promise<{ inserted: number; interrupted: boolean }> {
  const { db, venues, out } = options;
  const now = options.now ?? Date.now;
  let drawn = 0;
  const render = async (final: boolean) => {
    const progress = venueProgress(await cursorGroups(db, now(), venues));
    const lines = venues.map((venue) => {
      const p = progress.get(venue);
      return progressLine(venue, { done: p?.markets_done ?? 0, total: p?.markets_total ?? 0, rows: p?.rows ?? 0 }, out.isTTY ? BAR : null);
    });
    if (out.isTTY) {
      out.write(`${drawn ? `\x1b[${drawn}A` : ""}${lines.map((line) => `\x1b[2K${line}\n`).join("")}`);
      drawn = lines.length;
    } else if (final) {
      out.write(lines.map((line) => `${line}\n`).join(""));
    }
  };
  out.write(`Backfilling ${venues.join(", ")} from ${new Date(options.since).toISOString().slice(0, 10)}\n`);
  for (const venue of venues) await seedCursors(db, await latestVenueMarkets(db, venue), now());
  let drawing: Promise<void> = Promise.resolve();
  const redraw = out.isTTY ? setInterval(() => (drawing = drawing.then(() => render(false))), options.redrawMs ?? 500) : undefined;
  const onEvent = (event: BackfillEvent) => {
    if (out.isTTY || event.kind === "stored") return;
    const detail = event.kind === "retry" || event.kind === "failed" ? `: ${event.error}` : "";
    out.write(`${event.market.exchange} ${event.market.market} ${event.kind}${detail}\n`);
  };
  try {
    const results = await Promise.all(
      venues.map((venue) => {
        const reader = options.readerFor(venue);
        return backfillVenue({ db, reader, io: options.ioFor(reader), since: options.since, now, withFailed: true, signal: options.signal, onEvent });
      }),
    );
    clearInterval(redraw);
    await drawing;
    await render(true);
    const inserted = results.reduce((sum, r) => sum + r.inserted, 0);
    const interrupted = options.signal?.aborted === true;
    out.write(
      interrupted
        ? `Stopped: ${inserted.toLocaleString("en-US")} settlements stored; run again to resume.\n`
        : `${inserted.toLocaleString("en-US")} settlements stored. Markets that failed wait for a retry (the worker's jobs, or another run).\n`,
    );
    return { inserted, interrupted };
  } finally {
    clearInterval(redraw);
  }
}
