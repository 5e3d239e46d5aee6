import { describe, expect, it } from "vitest";
import type { RecordedRequest, ReplayRoute } from "@/lib/market/venues/replay-fetch";
import { VENUE_IDS, type MarketSnapshot, type VenueId } from "@/lib/market/model/types";
import { replayVenue } from "@/tests/support/market/replay-venue";
import { VENUE_EXPECTATIONS, type Expectation, type Reference } from "./venue-expectations";
import { VENUE_QUIRKS } from "./venue-quirks";

/** `METHOD /path?key=value {json body}`, unencoded so a row reads as the venue's documentation does. */
function describeRequest(request: RecordedRequest, unstableQuery: readonly string[] = []): string {
  const query = Object.entries(request.query).map(([key, value]) => `${key}=${unstableQuery.includes(key) ? "…" : value}`);
  const body = request.body === undefined || request.body === null ? "" : ` ${JSON.stringify(request.body)}`;
  return `${request.method} ${request.path}${query.length > 0 ? `?${query.join("&")}` : ""}${body}`;
}

/** A warning whose label (the text before its first ":") is `label`. */
function labelled(label: string): RegExp {
  return new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`);
}

/** The whole snapshot a reference stands for: identity fields from the symbol unless it says otherwise. */
function wholeSnapshot(exchange: string, reference: Reference): MarketSnapshot {
  const [base = "", quote = "", settle = ""] = reference.market.split(/[/:]/);
  return { exchange, base, venueBase: base, contractMultiplier: 1, quote, settle, ...reference };
}

/** Whether a recorded answer names `id` as a JSON string. */
function recorded(routes: readonly ReplayRoute[], id: string): boolean {
  const bodies = routes.map((route) => ("body" in route.reply ? route.reply.body : undefined));
  return bodies.some((body) => (typeof body === "string" ? body : JSON.stringify(body)).includes(JSON.stringify(id)));
}

/** One refresh against `routes`, and every assertion `expectation` makes of it. */
async function expectRefresh(
  venue: VenueId,
  routes: ReplayRoute[],
  expectation: Expectation,
  options: { now?: number; requestsInAnyOrder?: boolean; unstableQuery?: readonly string[] },
): Promise<void> {
  const { now } = options;
  const { result, requests } = await replayVenue(venue, routes, now === undefined ? {} : { now: () => now });
  if (expectation.requests) {
    const asked = requests.map((request) => describeRequest(request, options.unstableQuery));
    expect(options.requestsInAnyOrder ? asked.sort() : asked).toEqual(options.requestsInAnyOrder ? [...expectation.requests].sort() : expectation.requests);
  }
  if (expectation.stale) {
    expect(result.status).toBe("stale");
    expect(result.status === "stale" && result.error).toMatch(expectation.stale);
    return;
  }
  if (result.status !== "ok") throw new Error(`expected ok, got stale: ${result.error}`);
  const { snapshots } = result;
  const find = (key: string) => snapshots.find((snapshot) => (key.includes("/") ? snapshot.market : snapshot.venueMarketId) === key);

  if (expectation.reference) expect(find(expectation.reference.market)).toEqual(wholeSnapshot(venue, expectation.reference));
  for (const [key, fields] of Object.entries(expectation.markets ?? {})) {
    if (fields === null) expect(find(key), key).toBeUndefined();
    else expect(find(key), key).toMatchObject(fields);
  }
  if (expectation.listed) expect(snapshots.map((snapshot) => snapshot.market)).toEqual(expectation.listed);
  if (expectation.marketCount !== undefined) expect(snapshots).toHaveLength(expectation.marketCount);
  for (const id of Object.keys(expectation.skipped ?? {})) {
    expect(recorded(routes, id), `${id} is in the recording`).toBe(true);
    expect(find(id), id).toBeUndefined();
  }
  if (expectation.excluded) expect(result.excluded).toMatchObject(expectation.excluded);
  if (expectation.warnings) {
    expect(result.warnings).toEqual(
      expectation.warnings.map((warning) => expect.stringMatching(typeof warning === "string" ? labelled(warning) : warning)),
    );
  }
}

describe("the venue table", () => {
  it("has one row for every venue", () => {
    expect(VENUE_EXPECTATIONS.map((row) => row.venue).sort()).toEqual([...VENUE_IDS].sort());
  });
});

for (const row of VENUE_EXPECTATIONS) {
  describe(row.venue, () => {
    it("meets its row on the recorded answers", async () => {
      await expectRefresh(row.venue, row.routes(), row, row);
    });

    for (const variant of row.variants ?? []) {
      it(variant.name, async () => {
        await expectRefresh(row.venue, variant.routes(), variant, { now: row.now, unstableQuery: row.unstableQuery });
      });
    }

    for (const [name, check] of Object.entries(VENUE_QUIRKS[row.venue] ?? {})) {
      it(name, async () => {
        await check();
      });
    }
  });
}
