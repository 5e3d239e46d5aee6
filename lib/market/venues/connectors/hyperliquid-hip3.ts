import { HOUR_MS } from "../../model/funding-interval";
import { hip3DexOf, HIP3_DEXES, HIP3_LEFT_OUT, type Hip3Dex, type Hip3VenueId } from "../../model/hip3-venues";
import { hip3TradingHours, hip3UnderlyingClass } from "../../model/underlying-class";
import { product, readNumber, runningEstimate, type FundingObservation } from "./build-snapshot";
import { asRecord, type HttpMarket, type HttpVenueAdapter } from "./venue-adapter";

/** Funding settles every hour, on the hour, on every Hyperliquid dex by protocol rule. */
const PROTOCOL_INTERVAL_HOURS = 1;

/**
 * Collateral tokens by spot token index, as `collateralToken` names them: 0 USDC (the main dex and
 * `xyz`), 360 USDH, 235 USDe (the `spotMeta` tokens of nautilus' non-USDC-collateral recording,
 * where km's meta says 360 and hyna's 235). A dex margined in another token is refused by name
 * rather than guessed at: its prices and funding are in that token's units.
 */
const COLLATERAL_TOKENS: ReadonlyMap<number, string> = new Map([
  [0, "USDC"],
  [235, "USDE"],
  [360, "USDH"],
]);

/**
 * The HIP-3 dexes `perpDexs` names: it is `[null, {name, fullName, deployer, …, assetToFundingMultiplier}, …]`,
 * element 0 (`null`) the main dex, every other element a HIP-3 dex in deployment order.
 */
export function perpDexNames(payload: unknown): string[] {
  if (!Array.isArray(payload)) throw new Error("perpDexs: expected a list");
  return payload.flatMap((entry): string[] => {
    const name = asRecord(entry)?.name;
    return typeof name === "string" && name !== "" ? [name] : [];
  });
}

/**
 * The dexes `perpDexs` lists that are neither served as venues (HIP3_DEXES) nor left out on
 * purpose (HIP3_LEFT_OUT): new dexes, named in a warning so they are added to the list.
 */
export function unservedDexes(names: readonly string[]): string[] {
  return names.filter((name) => !(HIP3_DEXES as readonly string[]).includes(name) && !(name in HIP3_LEFT_OUT));
}

/**
 * Whether a dex has a market that trades: one with open interest, volume or a book. A test or abandoned dex
 * (`abcd` in the May 2026 recording: one market, funding "0.0", no book, no interest, no volume)
 * has none, and its venue is stale rather than a list of dead markets.
 */
export function hasLiveMarket(contexts: readonly unknown[]): boolean {
  return contexts.some((context) => !isDeadContext(asRecord(context)));
}

/**
 * A context of a market that does not trade: no open interest, no volume and no book
 * (`impactPxs` null). Every such context of the May 2026 recording (27 of its 182 HIP-3 contexts:
 * 16 of xyz's 80, abcd's one) also has `premium` null and funding 0; universes keep delisted coins,
 * whose contexts look so.
 */
export function isDeadContext(context: Record<string, unknown> | undefined): boolean {
  if (!context) return true;
  const idle = (value: unknown) => (readNumber(value) ?? 0) === 0;
  return idle(context.openInterest) && idle(context.dayNtlVlm) && (context.impactPxs === null || context.impactPxs === undefined);
}

/** One HIP-3 market's universe row and context, kept as the market's `info` for `collect`. */
interface Hip3MarketInfo extends Record<string, unknown> {
  coin: string;
  context: Record<string, unknown> | undefined;
  /** The refresh's unservedDexes, for its warning. */
  unserved: readonly string[];
}

/**
 * `metaAndAssetCtxs` with `dex` is `[{universe: [{name: "xyz:TSLA", isDelisted?, …}], collateralToken},
 * [context, …]]`, the i-th context the i-th universe entry's. Coins carry the dex prefix; the market's
 * base is the coin without it (`TSLA`), and its symbol ccxt's (`XYZ-TSLA/USDC:USDC`).
 */
export function hip3Markets(dex: Hip3Dex, payload: unknown, unserved: readonly string[] = []): HttpMarket[] {
  const [meta, contexts] = Array.isArray(payload) ? payload : [];
  const universe = asRecord(meta)?.universe;
  if (!Array.isArray(universe) || !Array.isArray(contexts)) throw new Error(`metaAndAssetCtxs ${dex}: expected [meta with a universe, contexts]`);
  if (!hasLiveMarket(contexts)) throw new Error(`dex ${dex} has no live market (no open interest, volume or book on any of ${universe.length})`);
  // Absent from answers older than non-USDC collateral: USDC then, as ccxt reads it.
  const tokenIndex = readNumber(asRecord(meta)?.collateralToken) ?? 0;
  const settle = COLLATERAL_TOKENS.get(tokenIndex);
  if (settle === undefined) throw new Error(`dex ${dex} is margined in spot token ${tokenIndex}, not one of USDC, USDE, USDH`);
  const prefix = `${dex}:`;
  return universe.flatMap((entry, i): HttpMarket[] => {
    const row = asRecord(entry);
    const coin = row?.name;
    // A coin without this dex's prefix is not this dex's market: a misrouted answer, never adopted.
    if (typeof coin !== "string" || !coin.startsWith(prefix) || coin.length === prefix.length) return [];
    const ticker = coin.slice(prefix.length);
    const info: Hip3MarketInfo = { coin, context: asRecord(contexts[i]), unserved };
    return [
      {
        id: coin,
        symbol: `${dex.toUpperCase()}-${ticker}/${settle}:${settle}`,
        base: ticker,
        quote: settle,
        settle,
        swap: true,
        linear: true,
        expiry: undefined,
        active: row?.isDelisted !== true && !isDeadContext(info.context),
        taker: undefined,
        info,
      },
    ];
  });
}

/** One HIP-3 market's observation from its context: the same fields and rules as the main dex's connector. */
export function observeHip3Market(dex: Hip3Dex, market: HttpMarket, fetchedAt: number): FundingObservation {
  const info = market.info as Hip3MarketInfo;
  const row = info.context ?? {};
  const markPrice = readNumber(row.markPx);
  const underlying = hip3UnderlyingClass(dex, market.base);
  return {
    symbol: market.symbol,
    // The context's `funding` is the hour's running rate, which settles next: both the current and
    // the predicted rate (`predictedFundings` covers the first dex only, per Hyperliquid's docs).
    ...runningEstimate(readNumber(row.funding)),
    // No cap or floor: perpDexs states per-coin funding multipliers (and, in newer schemas, interest
    // rates and clamps) whose effect on a bound Hyperliquid does not document, and the main dex's
    // 4 %/h protocol cap is not carried over by assumption.
    interval: { hours: PROTOCOL_INTERVAL_HOURS, source: "protocol" },
    nextFundingAt: (Math.floor(fetchedAt / HOUR_MS) + 1) * HOUR_MS,
    markPrice,
    indexPrice: readNumber(row.oraclePx),
    // `openInterest` is in coins; `dayNtlVlm` is already notional.
    openInterestUsd: product(readNumber(row.openInterest), markPrice),
    volume24hUsd: readNumber(row.dayNtlVlm),
    observedAt: fetchedAt,
    underlyingClass: underlying,
    tradingHours: hip3TradingHours(underlying),
  };
}

/**
 * One HIP-3 dex as a venue, over plain HTTP: the installed ccxt keys a client by exchange class and
 * loads HIP-3 markets of at most ten dexes into the main dex's client, where one venue per dex
 * needs its own list. A refresh asks `perpDexs` (the dex must still be listed; dexes it lists that
 * are not venues are named in a warning) and the dex's `metaAndAssetCtxs`, which is both its market
 * list and its funding payload. Every request spends Hyperliquid's one budget (venue-request-limits.ts).
 */
export function hyperliquidHip3Adapter(venue: Hip3VenueId): HttpVenueAdapter {
  const dex = hip3DexOf(venue)!;
  return {
    kind: "http",
    id: venue,
    baseUrl: "https://api.hyperliquid.xyz",
    // Info requests weigh 20 of 1200 a minute: one a second, as for the main dex.
    requestSpacingMs: 1_000,
    async loadMarkets(http) {
      const names = perpDexNames(await http.postJson("/info", { type: "perpDexs" }));
      if (!names.includes(dex)) throw new Error(`perpDexs no longer lists dex ${dex}`);
      return hip3Markets(dex, await http.postJson("/info", { type: "metaAndAssetCtxs", dex }), unservedDexes(names));
    },
    async collect(_http, { marketsById, fetchedAt }) {
      const markets = [...marketsById.values()];
      const unserved = (markets[0]?.info as Hip3MarketInfo | undefined)?.unserved ?? [];
      return {
        observations: markets.map((market) => observeHip3Market(dex, market, fetchedAt)),
        warnings: unserved.length > 0 ? [`perpDexs: dexes not served as venues: ${unserved.join(", ")}`] : [],
      };
    },
  };
}
