import { describe, expect, it } from "vitest";
import { createReplayFetch } from "../replay-fetch";
import { VENUE_REPLAYS } from "../sample/venue-replay-table";
import { fetchVenueSnapshot, MARKETS_TTL_MS, marketsDue } from "./fetch-venue-snapshot";

const T0 = Date.UTC(2026, 10, 24, 12);

describe("a kept client's market list", () => {
  it("is due when never loaded, after MARKETS_TTL_MS, or once a refresh met a market it lacks", () => {
    expect(marketsDue(undefined, T0)).toBe(true);
    expect(marketsDue({ loadedAt: T0, stale: false }, T0 + MARKETS_TTL_MS - 1)).toBe(false);
    expect(marketsDue({ loadedAt: T0, stale: false }, T0 + MARKETS_TTL_MS)).toBe(true);
    expect(marketsDue({ loadedAt: T0, stale: true }, T0 + 1)).toBe(true);
  });

  it("is loaded once and reused until it is due, and every refresh still fetches funding", async () => {
    const replay = createReplayFetch(VENUE_REPLAYS.okx());
    let now = T0;
    const refresh = () =>
      fetchVenueSnapshot("okx", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => now });
    const count = (path: string) => replay.requests.filter((request) => request.path === path).length;
    for (const at of [T0, T0 + 60_000, T0 + MARKETS_TTL_MS - 1]) {
      now = at;
      expect((await refresh()).status).toBe("ok");
    }
    expect(count("/api/v5/public/instruments")).toBe(1);
    expect(count("/api/v5/public/funding-rate")).toBe(3);
    now = T0 + MARKETS_TTL_MS;
    await refresh();
    expect(count("/api/v5/public/instruments")).toBe(2);
  });

  it("is reloaded on the next refresh after funding rows named a market it lacks", async () => {
    const routes = VENUE_REPLAYS.okx();
    // Instruments without ETH-USDT-SWAP, whose funding row then names an unlisted market.
    const instruments = routes.find((route) => route.path === "/api/v5/public/instruments");
    if (!instruments || !("body" in instruments.reply)) throw new Error("no instruments route");
    const body = JSON.parse(String(instruments.reply.body)) as { data: { instId: string }[] };
    const without = { ...body, data: body.data.filter((row) => row.instId !== "ETH-USDT-SWAP") };
    const partial = createReplayFetch([{ ...instruments, reply: { body: without } }, ...routes.filter((route) => route !== instruments)]);
    const refresh = (at: number) =>
      fetchVenueSnapshot("okx", { fetchImplementation: partial.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at });
    const first = await refresh(T0);
    expect(first.status === "ok" && first.excluded.unlisted).toBe(1);
    await refresh(T0 + 60_000);
    expect(partial.requests.filter((request) => request.path === "/api/v5/public/instruments")).toHaveLength(2);
  });

  it("is loaded on every refresh where it is the funding payload (Gate's contract list), so no rate repeats", async () => {
    const replay = createReplayFetch(VENUE_REPLAYS.gate());
    for (const at of [T0, T0 + 60_000]) {
      const result = await fetchVenueSnapshot("gate", { fetchImplementation: replay.fetchImplementation, enableRateLimit: false, keepClient: true, now: () => at });
      expect(result.status).toBe("ok");
    }
    expect(replay.requests.filter((request) => request.path === "/api/v4/futures/usdt/contracts")).toHaveLength(2);
  });
});
