import type { Metadata } from "next";
import Link from "next/link";
import { ScrollRegion } from "@/app/components/scroll-region";
import { formatUtc } from "@/lib/format-time";
import { feedChartSvg, formatMs } from "@/lib/screener/feed-chart-svg";
import { feedStatusView, type VenueFeedRow } from "@/lib/screener/feed-status-view";
import { formatSeconds } from "@/lib/screener/format";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Feed status — Funding Opportunity Data Service" };

/**
 * How fresh each venue's data is, for everyone (no sign-in): the figures GET /v1/exchanges gives
 * in `feed`, with each venue's last hour of publish latency as a server-rendered chart (no script draws it).
 */
export default async function StatusPage() {
  const now = new Date();
  const rows = await feedStatusView(now.getTime());
  const streaming = rows.filter((row) => row.feed.transport === "stream").length;
  return (
    <div className="status-page">
      <h1>Feed status</h1>
      <p>
        How each exchange&apos;s numbers reach the service and how fast changes are published, as of{" "}
        <time dateTime={now.toISOString()}>{formatUtc(now.toISOString())}</time>. {streaming} of {rows.length} venues
        stream; the others are polled. The same figures are in <code>feed</code> of <Link href="/docs">GET /v1/exchanges</Link>. Back to
        the <Link href="/opportunities">opportunity screener</Link>.
      </p>
      <ScrollRegion labelledBy="feed-status-caption">
        <table className="screener-table status-table">
          <caption id="feed-status-caption">
            Per venue: transport, age of the last message, venue-to-publish latency over the last hour (p50, p99), stream reconnects
            over 24 hours, and the p99 latency of each minute of the last hour.
          </caption>
          <thead>
            <tr>
              <th scope="col">Venue</th>
              <th scope="col">Transport</th>
              <th scope="col" className="num">
                Last message
              </th>
              <th scope="col" className="num">
                p50 latency
              </th>
              <th scope="col" className="num">
                p99 latency
              </th>
              <th scope="col" className="num">
                Reconnects (24 h)
              </th>
              <th scope="col">Last hour (p99 per minute)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <VenueRow key={row.id} row={row} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}

function VenueRow({ row }: { row: VenueFeedRow }) {
  const { feed } = row;
  const transport =
    feed.transport === "stream"
      ? "Stream"
      : `Poll${feed.poll_interval_seconds === null ? "" : ` every ${formatSeconds(feed.poll_interval_seconds)}`}`;
  return (
    <tr data-venue={row.id}>
      <th scope="row">
        {row.name}
        {row.status === "stale" && (
          <>
            {" "}
            <span className="badge badge-stale">stale</span>
          </>
        )}
      </th>
      <td>
        {transport}
        {feed.transport_reason && <span className="muted"> ({feed.transport_reason})</span>}
      </td>
      <td className="num">{feed.last_message_age_seconds === null ? "never" : `${formatSeconds(feed.last_message_age_seconds)} ago`}</td>
      <td className="num">{feed.latency_p50_ms === null ? "—" : formatMs(feed.latency_p50_ms)}</td>
      <td className="num">{feed.latency_p99_ms === null ? "—" : formatMs(feed.latency_p99_ms)}</td>
      <td className="num">{feed.reconnects_24h}</td>
      {/* The chart is SVG text made on the server from numbers only (feedChartSvg escapes its texts). */}
      <td dangerouslySetInnerHTML={{ __html: feedChartSvg(row.series, { id: `chart-${row.id}`, venue: row.name }) }} />
    </tr>
  );
}
