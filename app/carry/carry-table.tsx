import type { ReactNode } from "react";
import { ScrollRegion } from "@/app/components/scroll-region";
import type { CarryOpportunity } from "@/lib/market/carry/carry-opportunity";
import { aprShade, persistenceShade } from "@/lib/screener/colour-scale";
import { basisNote, CARRY_TYPE_LABELS } from "@/lib/screener/carry-cells";
import { persistenceCell } from "@/lib/screener/persistence-cell";
import { formatAge, formatApr, formatAssetAmount, formatBps, formatFundingRate, formatInterval, formatUsdCompact } from "@/lib/screener/format";
import { venueName } from "@/lib/screener/price-spread-note";
import { Shaded, SortableHeading, type SortHeading } from "../opportunities/opportunity-table";
import styles from "../opportunities/screener.module.css";

interface Props {
  items: readonly CarryOpportunity[];
  /** Epoch ms of the render, which "updated" is measured from. */
  renderedAt: number;
  /** True when the set is the bundled offline sample: every row says so. */
  sample: boolean;
  sortHeadings: { apr: SortHeading; net_apr: SortHeading };
}

/**
 * The carry tab's table: every figure of an item in its own column, scrolling inside its box when
 * the window is narrower than the table (a phone), so the page itself never scrolls sideways.
 */
export function CarryTable({ items, renderedAt, sample, sortHeadings }: Props) {
  return (
    <ScrollRegion label="Carry opportunities, scrolls sideways">
      <table className={`screener-table ${styles.table}`} aria-label="Carry opportunities">
        <thead>
          <tr>
            <th scope="col">Asset</th>
            <th scope="col">Trade</th>
            <th scope="col">Spot leg</th>
            <th scope="col">Perpetual leg</th>
            <SortableHeading heading={sortHeadings.apr} />
            <SortableHeading heading={sortHeadings.net_apr} />
            <th scope="col" className="num" title="The spot venue's rate for borrowing the asset, per year (borrowed spot only)">
              Borrow APR
            </th>
            <th scope="col" className="num" title="How much of the asset the spot venue lends (borrowed spot only)">
              Borrowable
            </th>
            <th scope="col" className="num" title="(perpetual mark − spot price) / spot price at entry">
              Basis
            </th>
            <th scope="col" className="num">
              Volume 24h
            </th>
            <th scope="col" className="num" title="How steadily the perpetual paid the trade: share of the last 7 days' settlements that paid, and the 7-day median APR">
              Persistence
            </th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <CarryRow key={item.id} item={item} renderedAt={renderedAt} sample={sample} />
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

function CarryRow({ item, renderedAt, sample }: { item: CarryOpportunity; renderedAt: number; sample: boolean }) {
  const persistence = persistenceCell(item.persistence);
  const borrowed = item.type === "perp_spot";
  return (
    <tr data-carry={item.id} data-type={item.type} data-sample={sample || undefined}>
      <th scope="row" className={styles.symbol}>
        {item.symbol}
        {sample && (
          <span className="badge badge-sample" data-testid="sample-row" title="Bundled sample recording, not live data">
            sample<span className="visually-hidden"> (bundled recording, not live data)</span>
          </span>
        )}
      </th>
      <td data-col="type">{CARRY_TYPE_LABELS[item.type]}</td>
      <td data-col="spot">
        <span className="leg">
          <strong>{venueName(item.spot)}</strong> <code>{item.spot.market}</code>
        </span>
      </td>
      <td data-col="perp">
        <span className="leg">
          <strong>{venueName(item.perp)}</strong> <code>{item.perp.market}</code>{" "}
          <span className={`leg-rate ${styles.legRate}`}>
            {formatFundingRate(item.perp.funding_rate)}
            <small> / {formatInterval(item.perp.funding_interval_hours)}</small>
          </span>
        </span>
      </td>
      <Shaded column="apr" shade={aprShade(item.apr)}>
        {formatApr(item.apr)}
      </Shaded>
      <Shaded column="net_apr" shade={aprShade(item.net_apr)}>
        {formatApr(item.net_apr)}
      </Shaded>
      <Num column="borrow_apr">{borrowed ? formatApr(item.borrow_apr) : <NotApplicable what="borrows nothing" />}</Num>
      <Num column="borrowable">{borrowed ? formatAssetAmount(item.borrowable, item.symbol) : <NotApplicable what="borrows nothing" />}</Num>
      <Num column="basis">
        <Explained note={basisNote(item)}>{formatBps(item.basis_bps)}</Explained>
      </Num>
      <Num column="volume">
        <span className={styles.line}>spot {formatUsdCompact(item.spot.volume_24h_usd)}</span>
        <span className={styles.line}>perp {formatUsdCompact(item.perp.volume_24h_usd)}</span>
      </Num>
      <Shaded column="persistence_7d" shade={persistenceShade(item.persistence.paid_share_7d)}>
        <Explained note={persistence.title}>{persistence.text}</Explained>
      </Shaded>
      <td data-col="updated" className="nowrap" title={item.updated_at}>
        {formatAge(item.updated_at, renderedAt)}
      </td>
    </tr>
  );
}

/** A cell's text with what explains it, as a tooltip for the pointer and as hidden text for screen readers. */
function Explained({ note, children }: { note: string | null; children: ReactNode }) {
  if (note === null) return children;
  return (
    <span title={note}>
      {children}
      <span className="visually-hidden"> ({note})</span>
    </span>
  );
}

function NotApplicable({ what }: { what: string }) {
  return (
    <span className="muted" title={`Held spot ${what}`}>
      n/a<span className="visually-hidden"> (held spot {what})</span>
    </span>
  );
}

function Num({ column, children }: { column: string; children: ReactNode }) {
  return (
    <td data-col={column} className="num">
      {children}
    </td>
  );
}
