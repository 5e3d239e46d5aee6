import type { OpportunityLeg } from "@/lib/market/model/types";
import { formatFundingRate } from "./format";

/** What a leg cell shows beside the current rate: the lines a trader checks before trusting it. */
export interface LegDetails {
  /** "pred 0.0120%": the venue's forecast, where it publishes one. */
  predicted: string | null;
  /** "settled 0.0100% · 08:00 UTC": the last settlement the service recorded. */
  settled: string | null;
  /** "cap +0.7500% / −0.7500%": the bounds the venue states. */
  bounds: string | null;
  /** Badges with their explanations (the tooltip and the screen-reader text). */
  badges: { label: string; kind: "at-cap" | "interval-changed"; note: string }[];
}

/** A leg's forecast, last settlement, bounds and badges as the screener words them. Pure. */
export function legDetails(leg: OpportunityLeg): LegDetails {
  const badges: LegDetails["badges"] = [];
  if (leg.at_cap) {
    badges.push({
      label: "at cap",
      kind: "at-cap",
      note: "The rate or the forecast sits at the venue's cap or floor: the venue may shorten the funding interval.",
    });
  }
  if (leg.interval_changed_at !== null) {
    badges.push({
      label: "interval changed",
      kind: "interval-changed",
      note: `The funding interval changed to ${leg.funding_interval_hours}h on ${utcMinute(leg.interval_changed_at)}.`,
    });
  }
  return {
    predicted: leg.predicted_funding_rate === null ? null : `pred ${formatFundingRate(leg.predicted_funding_rate)}`,
    settled:
      leg.last_settled_rate === null || leg.last_settled_at === null
        ? null
        : `settled ${formatFundingRate(leg.last_settled_rate)} · ${utcMinute(leg.last_settled_at)}`,
    bounds: boundsText(leg.rate_cap, leg.rate_floor),
    badges,
  };
}

function boundsText(cap: number | null, floor: number | null): string | null {
  if (cap === null && floor === null) return null;
  const signed = (rate: number) => `${rate > 0 ? "+" : ""}${formatFundingRate(rate)}`;
  if (cap !== null && floor !== null && floor === -cap) return `cap ±${formatFundingRate(cap)}`;
  return `cap ${cap === null ? "—" : signed(cap)} / ${floor === null ? "—" : signed(floor)}`;
}

/** "2026-11-24 08:00 UTC". */
function utcMinute(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
