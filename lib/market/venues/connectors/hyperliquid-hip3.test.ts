import { describe, expect, it } from "vitest";
import { fixtureJson } from "@/tests/fixtures/venues/read-fixture";
import { HIP3_DEXES } from "../../model/hip3-venues";
import { hasLiveMarket, isDeadContext, perpDexNames, unservedDexes } from "./hyperliquid-hip3";

type Row = Record<string, unknown>;

/** The REAL allDexsAssetCtxs message (nautilus, late May 2026): every dex's contexts. */
const RECORDED = new Map(fixtureJson<{ data: { ctxs: [string, Row[]][] } }>("hyperliquid-hip3/ws_allDexsAssetCtxs_2026-05_nautilus.json").data.ctxs);

describe("the HIP-3 dex list", () => {
  it("reads the dex names of perpDexs (the DOC answer), the main dex's null left out", () => {
    expect(perpDexNames(fixtureJson("hyperliquid-hip3/perpDexs_DOC.json"))).toEqual(["test"]);
    expect(() => perpDexNames({ dexes: [] })).toThrow(/perpDexs/);
  });

  it("serves every dex of the recording that trades, and no other", () => {
    const live = [...RECORDED].filter(([name, contexts]) => name !== "" && hasLiveMarket(contexts)).map(([name]) => name);
    expect(live.sort()).toEqual([...HIP3_DEXES].sort());
    expect(hasLiveMarket(RECORDED.get("abcd")!)).toBe(false);
  });

  it("names new dexes in its warning, but not the test dex left out on purpose", () => {
    expect(unservedDexes([...RECORDED.keys()].filter((name) => name !== ""))).toEqual([]);
    expect(unservedDexes(["xyz", "abcd", "newdex"])).toEqual(["newdex"]);
  });

  it("tells the recording's dead markets (no interest, volume or book) from those merely without a book", () => {
    const dead = [...RECORDED].filter(([name]) => name !== "").flatMap(([, contexts]) => contexts.filter((context) => isDeadContext(context)));
    // 16 of xyz's, abcd's 1, and 10 on the other dexes: every one has no premium and funding 0.
    expect(dead).toHaveLength(27);
    expect(dead.every((context) => context.premium === null && Number(context.funding) === 0)).toBe(true);
    // The DOC xyz answer's TSLA has no book but open interest: it trades.
    const [, contexts] = fixtureJson<[Row, Row[]]>("hyperliquid-hip3/metaAndAssetCtxs_xyz_DOC.json");
    expect(contexts.map((context) => isDeadContext(context))).toEqual([false, false, false]);
  });
});
