import { z } from "zod";
import { flag, positiveInt, readSettings } from "@/lib/config/settings";
import { DEFAULT_PAIR_PRICE_BOUND } from "../model/price-bound";
import type { SpotCredentials } from "../carry/fetch-spot-legs";

/** A `ws://` or `wss://` URL: where streams go instead of the venues (a loopback replay server). */
const streamUrlOverride = z
  .string()
  .refine((value) => {
    try {
      return ["ws:", "wss:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "a ws:// or wss:// URL")
  .optional();

/**
 * When a streamed price move alone is published (micro-batch-publisher.ts `isNews`): its defaults.
 * No refresh between rounds: the rounds publish every price once a minute, and refreshing every
 * asset's small moves in the micro-batches as well (every 15 s, at 46 venues × 600 assets) re-ranked
 * 20,000 pairs a second, a third of the ingesting thread's time, and tripled the tail of the news's
 * latency (bench:freshness, docs/operations.md).
 */
export const DEFAULT_PRICE_CONFLATION = { moveBps: 10, refreshMs: 0 };

const schema = z.object({
  INGEST_INTERVAL_MS: positiveInt(60_000),
  INGEST_DISABLED: flag.default(false),
  INGEST_IN_SERVER: flag.default(false),
  INGEST_VENUE_TIMEOUT_MS: positiveInt(10_000),
  // Off unless `on` (liveFeedsOn says why, and where `on` needs a replay server too).
  INGEST_STREAMS: z.enum(["on", "off"]).optional(),
  VENUE_STREAM_URL_OVERRIDE: streamUrlOverride,
  // The micro-batch period: legs the live feeds change are published at most this often (micro-batch-publisher.ts).
  PUBLISH_BATCH_MS: positiveInt(500),
  // Price moves smaller than this wait for their asset's refresh, at most PUBLISH_PRICE_REFRESH_MS (micro-batch-publisher.ts isNews).
  PUBLISH_PRICE_MOVE_BPS: positiveInt(DEFAULT_PRICE_CONFLATION.moveBps),
  // 0: no refresh between rounds (the next round publishes them).
  PUBLISH_PRICE_REFRESH_MS: z.coerce.number().int().nonnegative().default(DEFAULT_PRICE_CONFLATION.refreshMs),
  // Legs whose per-unit marks stray from their asset's median by more than this fraction are never paired (model/price-bound.ts).
  PAIR_PRICE_BOUND: z.coerce.number().positive().max(2).default(DEFAULT_PAIR_PRICE_BOUND),
  MARKET_RAW_RETENTION_DAYS: positiveInt(7),
  MARKET_HOURLY_RETENTION_DAYS: positiveInt(730),
  // Unset: settlements are the product's history and are kept. Set: whole months older than it go.
  SETTLEMENT_RETENTION_DAYS: z.coerce.number().int().positive().optional(),
  // `on`: rounds also fetch the spot venues (spot legs, borrow rates) and publish the carry set.
  INGEST_SPOT: z.enum(["on", "off"]).default("on"),
  // Read-only keys for the signed borrow-rate endpoints; without a venue's pair its spot legs have no borrow rate.
  SPOT_BINANCE_API_KEY: z.string().optional(),
  SPOT_BINANCE_API_SECRET: z.string().optional(),
  SPOT_BYBIT_API_KEY: z.string().optional(),
  SPOT_BYBIT_API_SECRET: z.string().optional(),
  SPOT_GATE_API_KEY: z.string().optional(),
  SPOT_GATE_API_SECRET: z.string().optional(),
});

export type IngestConfig = z.infer<typeof schema>;

/** The ingestion settings (README "Configuration"); a bad value stops start-up naming the variable. */
export function readIngestConfig(source: NodeJS.ProcessEnv = process.env): IngestConfig {
  const config = readSettings(schema, source);
  spotCredentials(config);
  return config;
}

const SIGNED_SPOT_VENUES = ["binance", "bybit", "gate"] as const;

/**
 * The read-only keys configured for the signed borrow endpoints. A key without its secret (or the
 * reverse) stops start-up naming both variables: it would otherwise sign nothing, silently.
 */
export function spotCredentials(config: IngestConfig): SpotCredentials {
  const credentials: SpotCredentials = {};
  for (const venue of SIGNED_SPOT_VENUES) {
    const prefix = `SPOT_${venue.toUpperCase()}_API`;
    const key = config[`${prefix}_KEY` as keyof IngestConfig] as string | undefined;
    const secret = config[`${prefix}_SECRET` as keyof IngestConfig] as string | undefined;
    if ((key === undefined) !== (secret === undefined)) throw new Error(`Invalid configuration: ${prefix}_KEY and ${prefix}_SECRET are set together or not at all`);
    if (key !== undefined && secret !== undefined) credentials[venue] = { key, secret };
  }
  return credentials;
}

/**
 * Whether the live feeds (venue streams, and polling between rounds) run: only when INGEST_STREAMS
 * is `on`. An operator opts in: they add a venue thread and every venue's socket, and want the
 * worker's young generation of 64 MB, where `npm start` keeps 4 MB for its footprint. Where the
 * rounds replay recorded answers or a test runs, `on` takes effect only together with a replay
 * server (VENUE_STREAM_URL_OVERRIDE): no test, fault run or the offline sample ever opens a socket
 * to a venue.
 */
export function liveFeedsOn(
  config: Pick<IngestConfig, "INGEST_STREAMS" | "VENUE_STREAM_URL_OVERRIDE">,
  context: { reachesVenues: boolean; env?: NodeJS.ProcessEnv },
): boolean {
  const env = context.env ?? process.env;
  const testRun = Boolean(env.VITEST) || env.NODE_ENV === "test";
  if (config.INGEST_STREAMS !== "on") return false;
  if (context.reachesVenues && !testRun) return true;
  return config.INGEST_STREAMS === "on" && config.VENUE_STREAM_URL_OVERRIDE !== undefined;
}

/**
 * Sends a venue's stream (or its REST token request) to `override` instead: the venue's host
 * becomes the first part of the path, the rest of the URL follows, so one replay server serves
 * every venue by path (`wss://fstream.binance.com/ws` → `ws://127.0.0.1:PORT/fstream.binance.com/ws`;
 * Binance's and Aster's `/ws` stay apart). An http(s) URL keeps its scheme's kind (http for ws).
 */
export function overrideStreamUrl(override: string, url: string): string {
  const target = new URL(override);
  const original = new URL(url);
  const secure = target.protocol === "wss:";
  const scheme = original.protocol.startsWith("http") ? (secure ? "https:" : "http:") : target.protocol;
  const prefix = target.pathname.replace(/\/+$/, "");
  return `${scheme}//${target.host}${prefix}/${original.host}${original.pathname}${original.search}`;
}

/**
 * A fetch for protocols that ask REST for their socket URL, sent to the replay server too, so with
 * an override nothing, not even the token request, reaches a venue.
 */
export function overrideFetch(override: string, fetchImplementation: typeof globalThis.fetch = globalThis.fetch): typeof globalThis.fetch {
  return (input, init) =>
    input instanceof Request
      ? fetchImplementation(new Request(overrideStreamUrl(override, input.url), input), init)
      : fetchImplementation(overrideStreamUrl(override, String(input)), init);
}
