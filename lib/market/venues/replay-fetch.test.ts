import { describe, expect, it } from "vitest";
import { createReplayFetch, type ReplayRoute } from "./replay-fetch";

const routes: ReplayRoute[] = [
  ...["BTC", "ETH", "SOL"].map((instrument): ReplayRoute => ({ method: "POST", path: "/ticker", body: { instrument }, reply: { body: { instrument } } })),
  { path: "/rates", query: { symbol: "BTC" }, reply: { body: "[1]" } },
  { path: "/rates", reply: { body: "[2]" } },
];
const post = (instrument: string) => ({ method: "POST", body: JSON.stringify({ instrument, extra: 1 }) });

describe("createReplayFetch", () => {
  it("answers each request with the first route of its method and path whose query and body fields it has", async () => {
    const { fetchImplementation, requests } = createReplayFetch(routes);
    expect(await (await fetchImplementation("https://venue.test/ticker", post("ETH"))).json()).toEqual({ instrument: "ETH" });
    expect(await (await fetchImplementation("https://venue.test/rates?symbol=BTC&x=1", {})).text()).toBe("[1]");
    expect(await (await fetchImplementation("https://venue.test/rates?symbol=ETH", {})).text()).toBe("[2]");
    const missing = await fetchImplementation("https://venue.test/ticker", post("DOGE"));
    expect(missing.status).toBe(404);
    expect(requests.map((r) => [r.method, r.path])).toEqual([
      ["POST", "/ticker"],
      ["GET", "/rates"],
      ["GET", "/rates"],
      ["POST", "/ticker"],
    ]);
  });

  it("finds the first matching route among hundreds on one path as trying them in turn would", async () => {
    // 600 instruments, each asked by a query field every route has; one of them twice, the first
    // asking a further field, so the second answers requests without it.
    const many: ReplayRoute[] = Array.from({ length: 600 }, (_, i): ReplayRoute => ({ path: "/ticker", query: { instrument: `A${i}` }, reply: { body: `[${i}]` } }));
    many.splice(7, 0, { path: "/ticker", query: { instrument: "A7", depth: "1" }, reply: { body: "[-7]" } });
    many.push({ path: "/ticker", query: { instrument: "A9" }, reply: { body: "[-9]" } });
    const { fetchImplementation } = createReplayFetch(many, { record: false });
    const ask = async (query: string) => {
      const response = await fetchImplementation(`https://venue.test/ticker?${query}`, {});
      return response.status === 200 ? response.text() : response.status;
    };
    expect(await ask("instrument=A599")).toBe("[599]");
    expect(await ask("instrument=A7&depth=1")).toBe("[-7]");
    expect(await ask("instrument=A7")).toBe("[7]");
    expect(await ask("instrument=A9")).toBe("[9]");
    expect(await ask("instrument=B1")).toBe(404);
    expect(await ask("other=1")).toBe(404);
  });

  it("answers a text reply byte for byte on every request, and a reply put on its route later from then on", async () => {
    const rates: ReplayRoute = { path: "/rates", reply: { status: 200, body: '{"name":"Zürich","rate":1e-5}' } };
    const { fetchImplementation } = createReplayFetch([rates]);
    const ask = async () => {
      const response = await fetchImplementation("https://venue.test/rates", {});
      return [response.status, await response.text()];
    };
    expect(await ask()).toEqual([200, '{"name":"Zürich","rate":1e-5}']);
    expect(await ask()).toEqual([200, '{"name":"Zürich","rate":1e-5}']);
    rates.reply = { status: 500, body: "Internal Server Error" };
    expect(await ask()).toEqual([500, "Internal Server Error"]);
  });

  it("keeps no requests when told not to record", async () => {
    const { fetchImplementation, requests } = createReplayFetch(routes, { record: false });
    expect(await (await fetchImplementation("https://venue.test/ticker", post("SOL"))).json()).toEqual({ instrument: "SOL" });
    expect(requests).toEqual([]);
  });

  it("answers a route that lists rows only with the rows asked for, in the reply's order and envelope", async () => {
    const rows = [
      { code: "BTC-USDT", rate: "0.0001" },
      { code: "ETH-USDT", rate: "0.0002" },
      { code: "SOL-USDT", rate: "0.0003" },
    ];
    const listed: ReplayRoute = { path: "/funding", rowsBy: { query: "code", field: "code" }, reply: { body: JSON.stringify({ status: "ok", data: rows, ts: 5 }) } };
    const { fetchImplementation } = createReplayFetch([listed]);
    const answer = async (query: string) => (await fetchImplementation(`https://venue.test/funding${query}`, {})).json();
    expect(await answer("?code=SOL-USDT,BTC-USDT")).toEqual({ status: "ok", data: [rows[0], rows[2]], ts: 5 });
    expect(await answer("?code=DOGE-USDT")).toEqual({ status: "ok", data: [], ts: 5 });
    expect(await answer("?code=ETH-USDT,ETH-USDT")).toEqual({ status: "ok", data: [rows[1]], ts: 5 });
    // Not asked by the parameter: every row, as the route was recorded.
    expect(await answer("")).toEqual({ status: "ok", data: rows, ts: 5 });
  });

  it("answers a route that selects columns with each row cut to the columns asked for", async () => {
    const rows = [
      { symbol: "XBTUSDT", fundingRate: 0.0001, lotSize: 100, state: "Open" },
      { symbol: "ETHUSDT", fundingRate: -0.0002, lotSize: 1 },
    ];
    const selected: ReplayRoute = { path: "/instrument", columnsBy: { query: "columns" }, reply: { body: rows } };
    const { fetchImplementation } = createReplayFetch([selected, { path: "/error", columnsBy: { query: "columns" }, reply: { status: 400, body: { error: "bad" } } }]);
    const answer = async (path: string) => (await fetchImplementation(`https://venue.test${path}`, {})).json();
    expect(await answer("/instrument?columns=symbol,state,fundingRate")).toEqual([
      { symbol: "XBTUSDT", fundingRate: 0.0001, state: "Open" },
      { symbol: "ETHUSDT", fundingRate: -0.0002 },
    ]);
    expect(await answer("/instrument")).toEqual(rows);
    // A reply replaced on its route is what the next request is cut from.
    selected.reply = { body: [{ symbol: "SOLUSDT", fundingRate: 0.0003, lotSize: 10 }] };
    expect(await answer("/instrument?columns=symbol,state,fundingRate")).toEqual([{ symbol: "SOLUSDT", fundingRate: 0.0003 }]);
    expect(await answer("/error?columns=symbol")).toEqual({ error: "bad" });
  });
});
