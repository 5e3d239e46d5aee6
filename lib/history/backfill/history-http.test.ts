import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { HistoryMarketGone } from "../history-types";
import { httpHistoryIo } from "./history-http";
import { RequestBudget } from "./request-budget";

function answering(status: number, body: unknown = {}, headers: Record<string, string> = {}) {
  const sent: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, sent };
}

describe("the backfill's HTTP for history readers", () => {
  it("draws on the venue's budget for every request and returns the JSON", async () => {
    let now = 0;
    const budget = new RequestBudget(1, 1, { now: () => now, sleep: async (ms) => void (now += ms) });
    const venue = answering(200, { list: [1] });
    const io = httpHistoryIo({ budget, fetch: venue.fetch });
    expect(await io.getJson("https://venue.test/history?symbol=BTC")).toEqual({ list: [1] });
    expect(await io.postJson("https://venue.test/info", { type: "fundingHistory" })).toEqual({ list: [1] });
    expect(now).toBe(1_000);
    expect(venue.sent[1]?.init).toMatchObject({ method: "POST", body: '{"type":"fundingHistory"}' });
  });

  it("tells a market the venue does not know from a refusal and an outage", async () => {
    const budget = new RequestBudget(1_000, 1_000);
    const fail = async (status: number, headers: Record<string, string> = {}) => {
      const error = await httpHistoryIo({ budget, fetch: answering(status, {}, headers).fetch }).getJson("https://venue.test/h").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    };
    expect((await fail(404)).code).toBe("NOT_FOUND");
    expect((await fail(410)).code).toBe("NOT_FOUND");
    expect(await fail(429, { "retry-after": "30" })).toMatchObject({ code: "RATE_LIMITED", extra: { retryAfter: 30 } });
    expect((await fail(418)).code).toBe("RATE_LIMITED");
    expect(await fail(502)).toMatchObject({ code: "VENUE_UNAVAILABLE", message: "venue.test answered 502" });
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof globalThis.fetch;
    await expect(httpHistoryIo({ budget, fetch: down }).getJson("https://venue.test/h")).rejects.toMatchObject({ code: "VENUE_UNAVAILABLE", message: "venue.test: fetch failed" });
  });

  it("throws HistoryMarketGone for an answer of any status the reader names the venue's unknown-symbol answer", async () => {
    const budget = new RequestBudget(1_000, 1_000);
    // Binance refuses an unknown symbol with a 400 and code -1121 (developers.binance.com, error codes).
    const marketGone = (body: unknown, status: number) => (status === 400 && (body as { code?: unknown }).code === -1121 ? "code -1121 Invalid symbol." : null);
    const read = (status: number, body: unknown) => httpHistoryIo({ budget, fetch: answering(status, body).fetch, marketGone }).getJson("https://fapi.venue.test/h").catch((e: unknown) => e);
    const gone = await read(400, { code: -1121, msg: "Invalid symbol." });
    expect(gone).toBeInstanceOf(HistoryMarketGone);
    expect((gone as HistoryMarketGone).reason).toBe("fapi.venue.test answered 400: code -1121 Invalid symbol.");
    // Another 400 is a refusal to retry, not a delisting; a 200 the test does not match is the answer.
    expect(await read(400, { code: -1102, msg: "Mandatory parameter 'symbol' was not sent." })).toMatchObject({ code: "VENUE_UNAVAILABLE" });
    expect(await read(200, [{ fundingTime: 1 }])).toEqual([{ fundingTime: 1 }]);
  });
});
