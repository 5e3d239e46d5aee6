/**
 * The screener's colour scale: which shade a cell of APR, net APR or persistence gets. The shade
 * only repeats what the number beside it says (the number always stays), so a trader can scan a
 * column; the buckets are coarse on purpose, so neighbouring shades differ visibly.
 */
export type Shade = "neg2" | "neg1" | "flat" | "pos1" | "pos2" | "pos3" | "pos4";

/** Lower bounds (percent per year) of the positive shades; below 0 a negative one. */
const APR_STEPS: readonly [number, Shade][] = [
  [100, "pos4"],
  [30, "pos3"],
  [10, "pos2"],
  [3, "pos1"],
  [0, "flat"],
  [-10, "neg1"],
];

/** An APR or net APR in percent per year; `null` (not known) gets no shade. Pure. */
export function aprShade(apr: number | null): Shade | null {
  if (apr === null || !Number.isFinite(apr)) return null;
  for (const [from, shade] of APR_STEPS) if (apr >= from) return shade;
  return "neg2";
}

/** Lower bounds (share of settlements that paid, 0–1) of the persistence shades; below the last, "neg2". */
const PERSISTENCE_STEPS: readonly [number, Shade][] = [
  [0.95, "pos4"],
  [0.85, "pos3"],
  [0.7, "pos2"],
  [0.5, "pos1"],
  [0.3, "neg1"],
];

/**
 * The share of the last 7 days' settlements that paid the right way (0–1): a pair that paid
 * almost always is the steadiest shade, one that paid less than half the time a negative one.
 */
export function persistenceShade(paidShare: number | null): Shade | null {
  if (paidShare === null || !Number.isFinite(paidShare)) return null;
  for (const [from, shade] of PERSISTENCE_STEPS) if (paidShare >= from) return shade;
  return "neg2";
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/** What each persistence shade means, read from the same steps, lowest first, for the legend. */
export const PERSISTENCE_SCALE_LEGEND: readonly { shade: Shade; label: string }[] = (() => {
  const ascending = [...PERSISTENCE_STEPS].reverse();
  return [
    { shade: "neg2" as const, label: `paid below ${percent(ascending[0]![0])}` },
    ...ascending.map(([from, shade], index) => {
      const next = ascending[index + 1];
      return { shade, label: next ? `${Math.round(from * 100)}–${percent(next[0])}` : `${percent(from)} and more` };
    }),
  ];
})();
/** What each shade means, for the legend beside the table. */
export const APR_SCALE_LEGEND: readonly { shade: Shade; label: string }[] = [
  { shade: "neg2", label: "below −10%" },
  { shade: "neg1", label: "−10 to 0%" },
  { shade: "flat", label: "0–3%" },
  { shade: "pos1", label: "3–10%" },
  { shade: "pos2", label: "10–30%" },
  { shade: "pos3", label: "30–100%" },
  { shade: "pos4", label: "100% and more" },
];
