import { describe, expect, it } from "vitest";
import type { ReplayRoute } from "@/lib/market/venues/replay-fetch";
import { widenRoutes } from "./widen-replays";

type Body = { data: Record<string, unknown>[] | { coinList: Record<string, string>[]; contractList: Record<string, string>[] } };
const bodyOf = (route: ReplayRoute) => JSON.parse((route.reply as { body: string }).body) as Body;

describe("widenRoutes", () => {
  it("clones rows that name the template market only by id (edgeX's funding rows) with the ids their metadata clones got", () => {
    const routes: ReplayRoute[] = [
      {
        path: "/meta",
        reply: {
          body: {
            data: {
              coinList: [
                { coinId: "1000", coinName: "USDC" },
                { coinId: "1001", coinName: "BTC" },
                { coinId: "1002", coinName: "ETH" },
              ],
              contractList: [
                { contractId: "30000001", contractName: "BTCUSDC", baseCoinId: "1001", quoteCoinId: "1000" },
                { contractId: "30000002", contractName: "ETHUSDC", baseCoinId: "1002", quoteCoinId: "1000" },
              ],
            },
          },
        },
      },
      {
        path: "/funding",
        reply: {
          body: {
            data: [
              { contractId: "30000001", fundingRate: "0.0001" },
              { contractId: "30000002", fundingRate: "0.0002" },
            ],
          },
        },
      },
    ];
    const [meta, funding] = widenRoutes(routes, ["A0000", "A0001"]);
    const { coinList, contractList } = bodyOf(meta!).data as { coinList: Record<string, string>[]; contractList: Record<string, string>[] };
    expect(coinList.map((c) => [c.coinId, c.coinName])).toEqual([
      ["1000", "USDC"],
      ["1001", "BTC"],
      ["1002", "ETH"],
      ["10001001", "A0000"],
      ["20001001", "A0001"],
    ]);
    // Each clone joins its own coin and keeps the quote coin.
    expect(contractList.slice(2).map((c) => [c.contractId, c.contractName, c.baseCoinId, c.quoteCoinId])).toEqual([
      ["40000001", "A0000USDC", "10001001", "1000"],
      ["50000001", "A0001USDC", "20001001", "1000"],
    ]);
    const rows = bodyOf(funding!).data as Record<string, unknown>[];
    expect(rows.map((r) => r.contractId)).toEqual(["30000001", "30000002", "40000001", "50000001"]);
    // The ETH row is not a template: it names no template id.
    expect(rows.filter((r) => r.contractId === "30000002")).toHaveLength(1);
  });

  it("widens a list of lists of pairs inside (Bitfinex's conf answer) rather than cloning a whole list", () => {
    const conf = [[["BTCUST", [1]]], [["BTCF0:USTF0", [2]], ["ETHF0:USTF0", [3]]]];
    const [route] = widenRoutes([{ path: "/conf", reply: { body: conf } }], ["A0000"]);
    expect(JSON.parse((route!.reply as { body: string }).body)).toEqual([
      [["BTCUST", [1]], ["A0000UST", [1]]],
      [["BTCF0:USTF0", [2]], ["ETHF0:USTF0", [3]], ["A0000F0:USTF0", [2]]],
    ]);
  });
});
