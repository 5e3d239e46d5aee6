import { DataTable } from "@/app/components/data-table";
import { doneShare, type BackfillProgress } from "@/lib/history/backfill/backfill-progress";
import { formatUtc } from "@/lib/format-time";
import { VENUE_NAMES } from "@/lib/market/venues/venue-names";

const STATE_LABELS: Record<BackfillProgress["state"], string> = {
  running: "Running",
  retrying: "Waiting to retry",
  done: "Done",
  failed: "Failed",
};

/** The operator console's funding-history backfill: a progress bar per venue, with its figures. */
export function BackfillProgressSection({ progress }: { progress: Map<string, BackfillProgress> }) {
  const venues = [...progress.entries()].sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-labelledby="backfill-heading">
      <h2 id="backfill-heading">Funding-history backfill</h2>
      <p className="muted">
        Each venue&apos;s own funding history read into the settlement table, market by market, to the depth BACKFILL_DAYS sets
        (or further with <code>npm run backfill</code>). A market is done when read to that depth or no longer listed by the venue.
      </p>
      {venues.length === 0 ? (
        <p>No backfill has started: it runs where ingestion runs, for the venues with a history reader.</p>
      ) : (
        <DataTable aria-labelledby="backfill-heading" columns={["Venue", "Markets read", "State", "Settlements stored", "Oldest settlement"]}>
          {venues.map(([id, venue]) => {
            const name = (VENUE_NAMES as Record<string, string | undefined>)[id] ?? id;
            return (
              <tr key={id}>
                <th scope="row">{name}</th>
                <td className="nowrap">
                  <progress max={Math.max(1, venue.markets_total)} value={venue.markets_done} aria-label={`${name} backfill, markets read`}>
                    {Math.round(doneShare(venue) * 100)}%
                  </progress>{" "}
                  {venue.markets_done.toLocaleString("en-US")} of {venue.markets_total.toLocaleString("en-US")}
                  {venue.markets_delisted > 0 ? ` (${venue.markets_delisted.toLocaleString("en-US")} delisted)` : ""}
                </td>
                <td>{STATE_LABELS[venue.state]}</td>
                <td>{venue.rows.toLocaleString("en-US")}</td>
                <td className="nowrap">{venue.oldest_settlement ? formatUtc(new Date(venue.oldest_settlement)) : "—"}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </section>
  );
}
