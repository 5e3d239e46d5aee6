import type { Hip3Dex } from "./hip3-venues";
import type { TradingHours, UnderlyingClass } from "./types";

/**
 * Tickers HIP-3 dexes list for things other than crypto assets, by class: the coins of the recorded
 * and documented HIP-3 answers (`xyz:XYZ100`, `xyz:TSLA`, `xyz:NVDA`, `km:US500`), the xyz coins
 * public HIP-3 clients name (`xyz:CL`, `xyz:BRENTOIL`, `xyz:SP500`, `xyz:GOLD`, `xyz:KR200`, …) and
 * the dexes' market lists as the issue's research summarises them (docs.trade.xyz; Felix, Kinetiq,
 * Dreamcash). Not complete by nature: a ticker not here takes its dex's default (HIP3_DEFAULT_CLASS).
 */
const NON_CRYPTO_TICKERS: Readonly<Record<Exclude<UnderlyingClass, "crypto" | "other">, readonly string[]>> = {
  equity: [
    "AAPL", "AMD", "AMZN", "BABA", "COIN", "CRCL", "CRWV", "GME", "GOOGL", "HOOD", "INTC", "LLY", "META", "MSFT", "MSTR",
    "MU", "NFLX", "NVDA", "ORCL", "PLTR", "SKHX", "SMSN", "SNDK", "TSLA", "TSM", "HYUNDAI",
  ],
  index: ["XYZ100", "SP500", "US500", "USA500", "USTECH", "US100", "KR200", "JP225", "VIX", "DXY", "EWY", "EWJ", "XLE"],
  commodity: ["GOLD", "SILVER", "CL", "BRENTOIL", "NATGAS", "COPPER", "URANIUM", "PLATINUM", "PALLADIUM", "ALUMINIUM", "OIL"],
  fx: ["EUR", "JPY", "GBP"],
};

const CLASS_OF_TICKER: ReadonlyMap<string, UnderlyingClass> = new Map(
  Object.entries(NON_CRYPTO_TICKERS).flatMap(([kind, tickers]) => tickers.map((ticker) => [ticker, kind as UnderlyingClass] as const)),
);

/**
 * A dex's class for a ticker the table does not name. HyENA (`hyna`) lists crypto perps margined in
 * USDe (`hyna:BTC`, REAL in the allPerpMetas recording) beside a few stocks; the other dexes list
 * stocks, indices, commodities and pre-IPO companies, so an unknown ticker there is `other`, which
 * pairs with no crypto market: a wrong `other` costs a missed pair, a wrong `crypto` a false one.
 */
const HIP3_DEFAULT_CLASS: Readonly<Record<Hip3Dex, UnderlyingClass>> = {
  xyz: "other",
  flx: "other",
  vntl: "other",
  hyna: "crypto",
  km: "other",
  cash: "other",
  para: "other",
};

/**
 * The class the table above gives a ticker (`TSLA` equity, `GOLD` commodity), for venues that list
 * such markets without declaring a class (Variational, WhiteBIT) or declare only some (Hibachi's
 * non-crypto categories); undefined for a ticker the table does not name.
 */
export function tickerUnderlyingClass(ticker: string): UnderlyingClass | undefined {
  return CLASS_OF_TICKER.get(ticker.toUpperCase());
}

/** The class of a HIP-3 market by its ticker (the coin without its `dex:` prefix) and its dex. */
export function hip3UnderlyingClass(dex: Hip3Dex, ticker: string): UnderlyingClass {
  return tickerUnderlyingClass(ticker) ?? HIP3_DEFAULT_CLASS[dex];
}

/**
 * A HIP-3 market's trading hours: every class but crypto tracks a market that closes, and trades on
 * through the closure with the dex's oracle pricing it from the dex's own book (docs.trade.xyz);
 * crypto trades around the clock, which is the field's absence.
 */
export function hip3TradingHours(underlying: UnderlyingClass): TradingHours | undefined {
  return underlying === "crypto" ? undefined : "always-off-hours-oracle";
}

/**
 * The key markets are paired under: their normalised base, and for anything but crypto its class
 * too, so `SPX` the memecoin and an `SPX` index never meet. Crypto keeps the bare base, as every
 * market did before classes.
 */
export function pairingKey(base: string, underlying: UnderlyingClass | undefined): string {
  return underlying === undefined || underlying === "crypto" ? base : `${base}\u0000${underlying}`;
}
