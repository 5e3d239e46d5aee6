import { describe, expect, it } from "vitest";
import { makeSnapshot } from "@/tests/support/market/make-snapshot";
import { marketKey } from "../../model/market-average";
import { rankOpportunities } from "../rank-opportunities";
import { ABSENT_POSITION, ColumnSlabs, emptyColumnArrays, itemReader, itemsOf, NULL, NumberColumn, type ColumnArrays } from "./columns";

/** Every array of a set's columns. */
type ColumnArray = Float64Array | Uint32Array | Uint8Array;

function arraysOf(columns: ColumnArrays): ColumnArray[] {
  return Object.values(columns).flatMap((column: NumberColumn | Uint32Array): ColumnArray[] => (column instanceof NumberColumn ? [column.values, column.states] : [column]));
}

/** Writes every byte of every array, as a ranking may. */
function scribble(columns: ColumnArrays): void {
  for (const array of arraysOf(columns)) new Uint8Array(array.buffer, array.byteOffset, array.byteLength).fill(0xab);
}

const snapshots = ["BTC", "ETH"].flatMap((base) =>
  ["binance", "bybit", "okx"].map((exchange, i) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0001 * (i + 1) })),
);

describe("ColumnSlabs", () => {
  it.each([
    ["a slab's", () => new ColumnSlabs().take(1_001)],
    ["new columns'", () => emptyColumnArrays(1_001)],
  ])("lays %s arrays out in one buffer, none overlapping, each as long as the set", (_, make) => {
    const columns = make();
    const arrays = arraysOf(columns);
    expect(arrays).toHaveLength(32);
    const slab = columns.apr.values.buffer;
    const spans = arrays.map((a) => {
      expect(a.buffer).toBe(slab);
      expect(a.length).toBe(1_001);
      expect(a.byteOffset % a.BYTES_PER_ELEMENT).toBe(0);
      return [a.byteOffset, a.byteOffset + a.byteLength] as const;
    });
    spans.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
    expect(spans.at(-1)![1]).toBeLessThanOrEqual(slab.byteLength);
  });

  it("gives a slab given back to the next set, laid out as new columns, as the set before left it", () => {
    const slabs = new ColumnSlabs();
    const first = slabs.take(500);
    scribble(first);
    slabs.giveBack(first);
    const second = slabs.take(480);
    expect(second.apr.values.buffer).toBe(first.apr.values.buffer);
    expect(arraysOf(second).map((a) => a.length)).toEqual(arraysOf(emptyColumnArrays(480)).map((a) => a.length));
    expect(second.apr.states[0]).toBe(0xab);
  });

  it("makes a new slab when the spare one is too small or none was given back, and ignores columns it did not make", () => {
    const slabs = new ColumnSlabs();
    const small = slabs.take(10);
    slabs.giveBack(small);
    expect(slabs.take(10_000).apr.values.buffer).not.toBe(small.apr.values.buffer);
    const held = slabs.take(10);
    expect(slabs.take(10).apr.values.buffer).not.toBe(held.apr.values.buffer);
    // Columns in new memory, not from here: never handed out later.
    const foreign = emptyColumnArrays(10);
    slabs.giveBack(foreign);
    expect(slabs.take(10).apr.values.buffer).not.toBe(foreign.apr.values.buffer);
  });

  it.each([
    ["without averages", undefined],
    ["with averages", new Map(snapshots.map((s, i) => [marketKey(s.exchange, s.market), { day: i % 2 ? null : i, week: i }]))],
  ])("ranks into a reused slab, whatever it held, byte for byte what it ranks into new memory, %s", (_, averages) => {
    // A price missing, so some rows have a null spread.
    const market = snapshots.map((s, i) => ({ ...s, markPrice: i === 2 ? null : s.markPrice }));
    const slabs = new ColumnSlabs();
    const scratch = slabs.take(6);
    scribble(scratch);
    slabs.giveBack(scratch);
    const reused = rankOpportunities(market, { slabs, averages }).columns;
    const fresh = rankOpportunities(market, { averages }).columns;
    expect(reused.apr.values.buffer).toBe(scratch.apr.values.buffer);
    expect(reused.price_spread_bps.states).toContain(NULL);
    const bytes = (columns: ColumnArrays) =>
      arraysOf(columns)
        .filter((a) => ArrayBuffer.isView(a))
        .map((a) => [...new Uint8Array(a.buffer, a.byteOffset, a.byteLength)]);
    expect(bytes(reused)).toEqual(bytes(fresh));
    expect(itemsOf(reused)).toEqual(itemsOf(fresh));
  });
});

describe("ColumnSlabs.scratch", () => {
  it("ranks round after round, each into the working arrays of the last, exactly what it ranks with new ones", () => {
    const slabs = new ColumnSlabs();
    const alone = itemsOf(rankOpportunities(snapshots).columns);
    const wider = ["SOL", "XRP", "BTC", "ETH"].flatMap((base) =>
      ["binance", "bybit", "okx", "gate"].map((exchange, i) => makeSnapshot({ exchange, base, market: `${base}/USDT:USDT`, fundingRate: 0.0002 * (3 - i) })),
    );
    for (const round of [snapshots, wider, snapshots]) {
      const ranked = rankOpportunities(round, { slabs }).columns;
      expect(itemsOf(ranked)).toEqual(itemsOf(rankOpportunities(round).columns));
      slabs.giveBack(ranked);
    }
    expect(itemsOf(rankOpportunities(snapshots, { slabs }).columns)).toEqual(alone);
  });
});

describe("ColumnSlabs with two spares", () => {
  it("keeps two slabs given back, hands each set the smallest it fits, and never the same one twice", () => {
    const slabs = new ColumnSlabs(2);
    const [big, small] = [slabs.take(1_000), slabs.take(10)];
    slabs.giveBack(big);
    slabs.giveBack(small);
    slabs.giveBack(small); // twice: still one spare
    const nextSmall = slabs.take(8);
    expect(nextSmall.apr.values.buffer).toBe(small.apr.values.buffer);
    expect(slabs.take(900).apr.values.buffer).toBe(big.apr.values.buffer);
    expect(slabs.take(8).apr.values.buffer).not.toBe(small.apr.values.buffer);
    // A third spare pushes the oldest out.
    const [a, b, c] = [slabs.take(5), slabs.take(5), slabs.take(5)];
    for (const spare of [a, b, c]) slabs.giveBack(spare);
    const buffers = [slabs.take(5), slabs.take(5), slabs.take(5)].map((x) => x.apr.values.buffer);
    expect(buffers).not.toContain(a.apr.values.buffer);
    expect(buffers).toContain(b.apr.values.buffer);
    expect(buffers).toContain(c.apr.values.buffer);
  });
});

describe("itemsOf", () => {
  const ranked = () => {
    const market = snapshots.map((s, i) => ({ ...s, markPrice: i === 2 ? null : s.markPrice }));
    const averages = new Map(market.map((s, i) => [marketKey(s.exchange, s.market), { day: i % 2 ? null : i, week: i }]));
    return rankOpportunities(market, { averages }).columns;
  };

  it("builds a ranked set's items as the field-by-field reader does, in the same key order, nulls kept", () => {
    const columns = ranked();
    expect(columns.keys).toContain("apr_7d_avg");
    const items = itemsOf(columns);
    const read = itemReader(columns);
    expect(items).toHaveLength(columns.count);
    items.forEach((item, i) => expect(JSON.stringify(item)).toBe(JSON.stringify(read(i))));
    // Some of what it copies is null: the missing mark price's spread, a leg without a day's average.
    expect(items.some((o) => o.price_spread_bps === null)).toBe(true);
    expect(items.some((o) => o.apr_1d_avg === null)).toBe(true);
    expect(items.some((o) => typeof o.apr_1d_avg === "number")).toBe(true);
  });

  it("leaves out an absent cell, as the field-by-field reader does", () => {
    const columns = ranked();
    columns.net_apr.put(1, undefined);
    columns["persistence.as_of"][0] = ABSENT_POSITION;
    const items = itemsOf(columns);
    expect("net_apr" in items[1]!).toBe(false);
    expect("as_of" in items[0]!.persistence).toBe(false);
    const read = itemReader(columns);
    items.forEach((item, i) => expect(JSON.stringify(item)).toBe(JSON.stringify(read(i))));
  });

  it("builds a set without averages field by field, with only its keys", () => {
    const columns = rankOpportunities(snapshots).columns;
    expect(itemsOf(columns).every((o) => !("apr_1d_avg" in o))).toBe(true);
  });
});
