import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createReplayFetch, type ReplayRoute } from "../replay-fetch";
import { createHttpClient, HttpBodyError, HttpStatusError, RequestTimeoutError } from "./http-client";
import type { FetchImplementation } from "./venue-adapter";

const BASE = "https://api.example.test";

function clientOver(routes: ReplayRoute[], settings: { timeoutMs?: number; spacingMs?: number } = {}) {
  const replay = createReplayFetch(routes);
  const client = createHttpClient({
    baseUrl: BASE,
    timeoutMs: settings.timeoutMs ?? 1_000,
    spacingMs: settings.spacingMs ?? 0,
    fetchImplementation: replay.fetchImplementation,
  });
  return { client, requests: replay.requests };
}

describe("the HTTP venue client", () => {
  it("GETs a path with its query and parses the JSON answer", async () => {
    const { client, requests } = clientOver([{ path: "/v1/list", query: { kind: "swap" }, reply: { body: { rows: [1, 2] } } }]);
    await expect(client.getJson("/v1/list", { kind: "swap" })).resolves.toEqual({ rows: [1, 2] });
    expect(requests).toEqual([{ method: "GET", path: "/v1/list", query: { kind: "swap" }, body: undefined }]);
  });

  it("POSTs a JSON body with its content type", async () => {
    const seen: { url: string; headers: Record<string, string> | undefined; body: string | undefined }[] = [];
    const fetchImplementation: FetchImplementation = async (url, init) => {
      seen.push({ url, headers: init.headers, body: init.body });
      return new Response("[]", { status: 200 });
    };
    const client = createHttpClient({ baseUrl: BASE, timeoutMs: 1_000, spacingMs: 0, fetchImplementation });
    await expect(client.postJson("/info", { type: "meta" })).resolves.toEqual([]);
    expect(seen).toEqual([
      { url: `${BASE}/info`, headers: { accept: "application/json", "content-type": "application/json" }, body: '{"type":"meta"}' },
    ]);
  });

  it("throws on a non-2xx answer, with the status and the start of the body", async () => {
    const { client } = clientOver([{ path: "/v1/list", reply: { status: 503, body: "Service Unavailable" } }]);
    const error = await client.getJson("/v1/list").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect(error).toMatchObject({ status: 503, message: "GET /v1/list answered HTTP 503: Service Unavailable" });
  });

  it("throws on a 200 whose body is not JSON", async () => {
    const { client } = clientOver([{ path: "/v1/list", reply: { body: "<html><body>Access denied</body></html>" } }]);
    const error = await client.getJson("/v1/list").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpBodyError);
    expect(String(error)).toMatch(/not JSON: <html><body>Access denied/);
  });

  it("aborts a request that outlives its timeout", async () => {
    const { client } = clientOver([{ path: "/v1/list", reply: { hang: true } }], { timeoutMs: 80 });
    const started = Date.now();
    const error = await client.getJson("/v1/list").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(String(error)).toMatch(/GET \/v1\/list timed out after 80 ms/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("aborts on the caller's signal, and a transport failure propagates as is", async () => {
    const { client } = clientOver([
      { path: "/hang", reply: { hang: true } },
      { path: "/down", reply: { fail: new TypeError("fetch failed") } },
    ]);
    const controller = new AbortController();
    const pending = client.getJson("/hang", undefined, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(client.getJson("/down")).rejects.toThrow("fetch failed");
  });

  it("starts requests at least the spacing apart, across calls and concurrent ones", async () => {
    // Fake time: the spacing is asserted exactly, whatever the machine's load.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    onTestFinished(() => void vi.useRealTimers());
    const starts: number[] = [];
    const fetchImplementation: FetchImplementation = async () => {
      starts.push(Date.now());
      return new Response("{}", { status: 200 });
    };
    const spacingMs = 60;
    const client = createHttpClient({ baseUrl: BASE, timeoutMs: 1_000, spacingMs, fetchImplementation });
    const settled = async <T>(work: Promise<T>): Promise<T> => {
      await vi.runAllTimersAsync();
      return work;
    };
    await settled(client.getJson("/a"));
    await settled(client.getJson("/b"));
    await settled(Promise.all([client.getJson("/c"), client.getJson("/d")]));
    expect(starts.slice(1).map((at, i) => at - starts[i]!)).toEqual([spacingMs, spacingMs, spacingMs]);

    // Spacing 0 (replays, or the throttle turned off) sends at once: no timer runs, and the clock stands still.
    client.spacingMs = 0;
    const before = Date.now();
    await Promise.all([client.getJson("/e"), client.getJson("/f"), client.getJson("/g")]);
    expect(starts.slice(4)).toEqual([before, before, before]);
  });

});
