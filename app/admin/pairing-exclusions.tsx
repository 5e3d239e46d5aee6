import { DataTable } from "@/app/components/data-table";
import { formatUtc } from "@/lib/format-time";
import { EXCLUDED_LEGS_LISTED, type PairingExclusions } from "@/lib/market/model/pairing-exclusions";
import { VENUE_NAMES } from "@/lib/market/venues/venue-names";

const PRICE = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 6 });

/**
 * The operator console's legs left out by the price bound: per venue, how many, and each leg with
 * its price beside its asset's median, so the ticker can be given its asset in the asset map.
 */
export function PairingExclusionsSection({ exclusions }: { exclusions: PairingExclusions | null }) {
  return (
    <section aria-labelledby="pairing-heading">
      <h2 id="pairing-heading">Legs left out by the price bound</h2>
      <p className="muted">
        A market whose mark, per unit of its asset, strays from the other venues&apos; for that asset by more than PAIR_PRICE_BOUND is
        paired with none: almost always a ticker naming another token on that venue, or a bundle size read wrong. Give it its
        asset in <code>lib/market/model/asset-map.json</code>.
      </p>
      {exclusions === null ? (
        <p>No round has recorded its pairing yet.</p>
      ) : exclusions.venues.length === 0 ? (
        <p>
          None: every priced leg of the round of {formatUtc(new Date(exclusions.round_started_at))} was within{" "}
          {exclusions.price_bound * 100} % of its asset&apos;s median.
        </p>
      ) : (
        <>
          <p className="muted">
            The round of {formatUtc(new Date(exclusions.round_started_at))}, bound {exclusions.price_bound * 100} %.
          </p>
          <DataTable aria-labelledby="pairing-heading" columns={["Venue", "Left out", "Market", "Venue base", "Asset", "Price per unit", "Asset median"]}>
            {exclusions.venues.flatMap((venue) => {
              const name = (VENUE_NAMES as Record<string, string | undefined>)[venue.exchange] ?? venue.exchange;
              if (venue.legs.length === 0) {
                return [
                  <tr key={venue.exchange}>
                    <th scope="row">{name}</th>
                    <td>{venue.excluded.toLocaleString("en-US")}</td>
                    <td colSpan={5} className="muted">
                      Not listed: a round lists its first {EXCLUDED_LEGS_LISTED} legs, by venue.
                    </td>
                  </tr>,
                ];
              }
              return venue.legs.map((leg, i) => (
                <tr key={`${venue.exchange} ${leg.market}`}>
                  {i === 0 ? (
                    <>
                      <th scope="row" rowSpan={venue.legs.length}>
                        {name}
                      </th>
                      <td rowSpan={venue.legs.length}>{venue.excluded.toLocaleString("en-US")}</td>
                    </>
                  ) : null}
                  <td>
                    <code>{leg.market}</code>
                  </td>
                  <td>{leg.venue_base}</td>
                  <td>
                    {leg.asset}
                    {leg.underlying_class ? ` (${leg.underlying_class})` : ""}
                  </td>
                  <td>{PRICE.format(leg.unit_price)}</td>
                  <td>{PRICE.format(leg.median_price)}</td>
                </tr>
              ));
            })}
          </DataTable>
        </>
      )}
    </section>
  );
}
