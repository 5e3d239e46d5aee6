import { beforeAll, describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { persistenceByMarkets } from "@/tests/support/market/persistence-lookup";
import { marketKey, type MarketAverage } from "../model/market-average";
import type { MarketSnapshot } from "../model/types";
import { replaySampleMarket } from "../sample/replay-sample-market";
import { itemsOf } from "./encoding/columns";
import { rankOpportunities, type ComputeOpportunitiesOptions } from "./rank-opportunities";
import { runInSlices } from "@/lib/time-slices";
import { countingTurns } from "@/tests/support/event-loop-turns";
import { differingColumns } from "@/tests/support/market/differing-columns";
import { wideMarket } from "@/tests/support/market/wide-market";
import { spliceColumns, spliceColumnSlices, spliceEntries } from "./splice-opportunities";
import { ITEM_FIELDS } from "@/tests/support/market/item-fields";

// The offline sample: every venue's recorded answer parsed through the real connectors.
let sample: MarketSnapshot[];
let options: ComputeOpportunitiesOptions;

beforeAll(async () => {
  sample = (await replaySampleMarket()).snapshots;
  // History as a round has it: averages for most markets, a settlement and an interval change for
  // some, persistence for some pairs, so every column a round fills is compared.
  const averages = new Map<string, MarketAverage>();
  const settlements = new Map<string, { rate: number; at: number }>();
  const intervalChanges = new Map<string, number>();
  sample.forEach((s, i) => {
    const key = marketKey(s.exchange, s.market);
    if (i % 3 !== 0) averages.set(key, { day: (i % 17) - 5, week: i % 5 === 0 ? null : (i % 11) - 3 });
    if (i % 7 === 0) settlements.set(key, { rate: 0.0001 * (i % 4), at: Date.UTC(2026, 8, 27, 8) });
    if (i % 13 === 0) intervalChanges.set(key, Date.UTC(2026, 8, 26, 12));
  });
  const persistence = persistenceByMarkets("2026-09-27T13:00:00.000Z", (long, short) =>
    long.base.length % 2 === 0
      ? { positive_since: null, apr_median_7d: long.base.length, apr_median_30d: null, paid_share_7d: 0.5, apr_stddev_7d: short.base.length }
      : undefined,
  );
  options = { averages, marketHistory: { settlements, intervalChanges }, persistence };
}, 60_000); // the sample is parsed through every connector: slow on a busy machine

/** The merged market's bases that changed, and the merged market: `changed` replacing their markets' snapshots. */
function merge(base: readonly MarketSnapshot[], changed: readonly MarketSnapshot[], removed: readonly MarketSnapshot[] = []) {
  const key = (s: MarketSnapshot) => marketKey(s.exchange, s.market);
  const byKey = new Map(base.map((s) => [key(s), s]));
  for (const s of removed) byKey.delete(key(s));
  for (const s of changed) byKey.set(key(s), s);
  const bases = new Set([...changed, ...removed].map((s) => s.base));
  const merged = [...byKey.values()];
  return { bases, merged, ofBases: merged.filter((s) => bases.has(s.base)) };
}

describe("spliceColumns", () => {
  it("equals ranking the whole merged market afresh, on the offline sample with changed, removed and new markets", () => {
    const live = rankOpportunities(sample, options).columns;
    const bases = [...new Set(sample.map((s) => s.base))].filter((b) => sample.filter((s) => s.base === b).length >= 3);
    expect(bases.length).toBeGreaterThanOrEqual(4);
    const [a, b, c, d] = bases;
    const changed = sample
      .filter((s) => s.base === a || s.base === b)
      .map((s, i) => ({ ...s, fundingRate: (s.fundingRate ?? 0) * (i % 2 ? -3 : 2.5) + 0.00001 * i, markPrice: s.markPrice === null ? null : s.markPrice * 1.001, observedAt: s.observedAt + 900 }));
    // Every market of `c` but one goes (its pairs all close); one of `d`'s goes; a new asset opens.
    const ofC = sample.filter((s) => s.base === c);
    const removed = [...ofC.slice(1), sample.find((s) => s.base === d)!];
    const added = [makeSnapshot({ exchange: "binance", base: "ZZNEW", market: "ZZNEW/USDT:USDT", fundingRate: 0.002 }), makeSnapshot({ exchange: "okx", base: "ZZNEW", market: "ZZNEW/USDT:USDT", fundingRate: -0.001 })];
    const { bases: touched, merged, ofBases } = merge(sample, [...changed, ...added], removed);

    const replacement = rankOpportunities(ofBases, options).columns;
    const spliced = spliceColumns(live, touched, replacement);
    const fresh = rankOpportunities(merged, options).columns;

    expect(spliced.count).toBe(fresh.count);
    expect(itemsOf(spliced)).toEqual(itemsOf(fresh));
    expect(spliced.ids).toBeNull();
    // Something really moved: the APR order of the spliced set differs from the live one's.
    expect(itemsOf(spliced).map((o) => o.id)).not.toEqual(itemsOf(live).map((o) => o.id));
    expect(itemsOf(spliced).some((o) => o.symbol === c)).toBe(false);
    expect(itemsOf(spliced).filter((o) => o.symbol === "ZZNEW")).toHaveLength(1);
  });

  it("stays equal to a fresh ranking over many batches in a row, its lists listed afresh when they grow", () => {
    const live0 = rankOpportunities(sample, options).columns;
    const assets = [...new Set(sample.map((s) => s.base))];
    let market = sample;
    let [appended, relisted] = [live0, live0];
    for (let n = 0; n < 12; n++) {
      const bases = new Set([assets[(n * 7) % assets.length]!, assets[(n * 11 + 3) % assets.length]!]);
      const changed = market.filter((s) => bases.has(s.base)).map((s, i) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.0002 * ((n + i) % 5) - 0.0004 }));
      market = merge(market, changed).merged;
      const part = rankOpportunities(market.filter((s) => bases.has(s.base)), options).columns;
      appended = spliceColumns(appended, bases, part);
      relisted = spliceColumns(relisted, bases, part, undefined, 0);
    }
    const fresh = itemsOf(rankOpportunities(market, options).columns);
    expect(itemsOf(appended)).toEqual(fresh);
    expect(itemsOf(relisted)).toEqual(fresh);
    // Appending keeps every earlier entry; listing afresh keeps only what the items use.
    expect(appended.legs.length).toBeGreaterThan(live0.legs.length);
    expect(relisted.legs.length).toBeLessThanOrEqual(live0.legs.length);
  });

  it("keeps the set as it was when the changed markets change nothing", () => {
    const live = rankOpportunities(sample, options).columns;
    const base = sample[0]!.base;
    const { bases, ofBases } = merge(sample, sample.filter((s) => s.base === base));
    expect(itemsOf(spliceColumns(live, bases, rankOpportunities(ofBases, options).columns))).toEqual(itemsOf(live));
  });

  it("answers the replacement itself when every asset of the set is re-ranked, equal to a fresh ranking", () => {
    const live = rankOpportunities(sample, options).columns;
    const changed = sample.map((s, i) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.00003 * ((i % 7) - 3), observedAt: s.observedAt + 1_000 }));
    const { bases, merged, ofBases } = merge(sample, changed);
    const replacement = rankOpportunities(ofBases, options).columns;
    const spliced = spliceColumns(live, bases, replacement);
    expect(spliced).toBe(replacement);
    expect(itemsOf(spliced)).toEqual(itemsOf(rankOpportunities(merged, options).columns));
    // One asset fewer in the batch: the kept pairs are merged in, in new memory.
    const lessOne = new Set([...bases].slice(1));
    const partial = spliceColumns(live, lessOne, rankOpportunities(ofBases.filter((s) => lessOne.has(s.base)), options).columns);
    expect(partial).not.toBe(replacement);
    expect(partial.count).toBe(replacement.count);
  });

  it("spliceEntries gives the same items as spliceColumns, reusing the kept items", () => {
    const live = rankOpportunities(sample, options).columns;
    const liveItems = itemsOf(live);
    const bases = new Set([sample[5]!.base, sample[40]!.base]);
    const changed = sample.filter((s) => bases.has(s.base)).map((s) => ({ ...s, fundingRate: (s.fundingRate ?? 0) + 0.0005 }));
    const { ofBases } = merge(sample, changed);
    const replacement = rankOpportunities(ofBases, options).columns;
    const items = spliceEntries(ITEM_FIELDS, liveItems, bases, itemsOf(replacement));
    expect(items).toEqual(itemsOf(spliceColumns(live, bases, replacement)));
    const kept = liveItems.find((o) => !bases.has(o.symbol))!;
    expect(items).toContain(kept);
    // Made at its size when the caller knows it; a wrong size is refused rather than leaving holes.
    expect(spliceEntries(ITEM_FIELDS, liveItems, bases, itemsOf(replacement), items.length)).toEqual(items);
    expect(() => spliceEntries(ITEM_FIELDS, liveItems, bases, itemsOf(replacement), items.length + 1)).toThrow(/spliced/);
  });

  it("splices a round-sized set in slices, turning the event loop between them, into the set spliced at once", async () => {
    const { snapshots, ...history } = wideMarket();
    const live = rankOpportunities(snapshots, history).columns;
    expect(live.count).toBeGreaterThan(140_000);
    // A caught-up round's splice: a few assets re-ranked with new rates, the rest of the set kept.
    const bases = new Set(["A3", "A250", "A599"]);
    const replacement = rankOpportunities(
      snapshots.filter((s) => bases.has(s.base)).map((s, i) => ({ ...s, fundingRate: (i % 5) * 0.0001 })),
      history,
    ).columns;

    const whole = spliceColumns(live, bases, replacement);
    const { result: sliced, turns } = await countingTurns(() => runInSlices(spliceColumnSlices(live, bases, replacement), 0));

    expect(differingColumns(sliced, whole)).toEqual([]);
    expect(sliced.count).toBe(whole.count);
    // The kept rows, a pause every 8,192 of them on each of its two passes.
    expect(turns).toBeGreaterThan(30);
  });
});
