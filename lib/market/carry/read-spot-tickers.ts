import { z } from "zod";
import { AppError } from "@/lib/errors";
import { venueDecimal } from "./venue-decimal";

/** One spot market as a venue's ticker answer states it, before normalising (`spot-leg-of.ts`). */
export interface SpotTickerRow {
  /** The venue's own market id: `BTCUSDT`, `BTC_USDT`, `BTC-USDT`. */
  venueSymbol: string;
  venueBase: string;
  venueQuote: string;
  /** Last traded price in the quote currency. */
  price: number;
  /** 24 h traded value in the quote currency, as the venue sums it. */
  quoteVolume24h: number;
  /** The market's own base-tier taker fee where the answer states one (KuCoin), else null. */
  takerFee: number | null;
}

/** Venues whose spot tickers are read here; each maps to the ticker endpoint its reader expects. */
export const SPOT_TICKER_VENUES = ["binance", "bybit", "okx", "gate", "bitget", "kucoin"] as const;
export type SpotTickerVenue = (typeof SPOT_TICKER_VENUES)[number];

/*
 * Binance, Bybit and Bitget write a spot symbol without a separator (BNBBTC, BTCUSDT); their ticker answers
 * do not repeat base and quote (the instruments list does). The quote is therefore read off the end
 * against the quote currencies those venues list, longest first so FDUSD is not read as USD. A
 * symbol ending in none of them is skipped, not guessed.
 */
const JOINED_QUOTES = ["FDUSD", "USDT", "USDC", "TUSD", "USDE", "BUSD", "DAI", "BTC", "ETH", "BNB", "EUR", "TRY", "BRL"] as const;

/** Base and quote of a joined symbol, or null when its quote is not one listed above. */
export function splitJoinedSymbol(symbol: string): { base: string; quote: string } | null {
  for (const quote of JOINED_QUOTES) {
    if (symbol.length > quote.length && symbol.endsWith(quote)) return { base: symbol.slice(0, -quote.length), quote };
  }
  return null;
}

const binanceTicker = z.object({ symbol: z.string(), lastPrice: venueDecimal, quoteVolume: venueDecimal });
/** `GET /api/v3/ticker/24hr`: an array without `symbol`, one object with it. */
const binanceBody = z.union([z.array(binanceTicker), binanceTicker.transform((row) => [row])]);

const bybitBody = z.object({
  retCode: z.literal(0),
  result: z.object({
    category: z.literal("spot"),
    list: z.array(z.object({ symbol: z.string(), lastPrice: venueDecimal, turnover24h: venueDecimal })),
  }),
});

const gateBody = z.array(z.object({ currency_pair: z.string(), last: venueDecimal, quote_volume: venueDecimal }));

// For SPOT, `volCcy24h` is in the quote currency (for derivatives OKX puts the base there) and `vol24h` in the base.
const okxBody = z.object({
  code: z.literal("0"),
  data: z.array(z.object({ instType: z.literal("SPOT"), instId: z.string(), last: venueDecimal, volCcy24h: venueDecimal })),
});

// `quoteVolume` is in the quote currency; `usdtVolume` is the same converted to USDT (equal on a USDT pair).
const bitgetBody = z.object({
  code: z.literal("00000"),
  data: z.array(z.object({ symbol: z.string(), lastPr: venueDecimal, quoteVolume: venueDecimal })),
});

// `volValue` is the quote-currency value (`vol` the base); a market's taker fee is `takerFeeRate` × `takerCoefficient`.
const kucoinBody = z.object({
  code: z.literal("200000"),
  data: z.object({
    ticker: z.array(
      z.object({ symbol: z.string(), last: venueDecimal.nullable(), volValue: venueDecimal, takerFeeRate: venueDecimal, takerCoefficient: venueDecimal }),
    ),
  }),
});

function joined(venueSymbol: string, price: number, quoteVolume24h: number): SpotTickerRow[] {
  const split = splitJoinedSymbol(venueSymbol);
  return split ? [{ venueSymbol, venueBase: split.base, venueQuote: split.quote, price, quoteVolume24h, takerFee: null }] : [];
}

/** A symbol written BASE<separator>QUOTE (Gate `BTC_USDT`, OKX and KuCoin `BTC-USDT`). */
function separated(venueSymbol: string, separator: string, price: number, quoteVolume24h: number, takerFee: number | null = null): SpotTickerRow[] {
  const [base, quote, ...rest] = venueSymbol.split(separator);
  if (!base || !quote || rest.length > 0) return [];
  return [{ venueSymbol, venueBase: base, venueQuote: quote, price, quoteVolume24h, takerFee }];
}

const READERS: Record<SpotTickerVenue, (body: unknown) => SpotTickerRow[]> = {
  binance: (body) => binanceBody.parse(body).flatMap((row) => joined(row.symbol, row.lastPrice, row.quoteVolume)),
  // `turnover24h` is Bybit's quote-currency value; `volume24h` is in the base.
  bybit: (body) => bybitBody.parse(body).result.list.flatMap((row) => joined(row.symbol, row.lastPrice, row.turnover24h)),
  okx: (body) => okxBody.parse(body).data.flatMap((row) => separated(row.instId, "-", row.last, row.volCcy24h)),
  gate: (body) => gateBody.parse(body).flatMap((row) => separated(row.currency_pair, "_", row.last, row.quote_volume)),
  bitget: (body) => bitgetBody.parse(body).data.flatMap((row) => joined(row.symbol, row.lastPr, row.quoteVolume)),
  // A market that has not traded has no `last`: it has no price to carry against.
  kucoin: (body) =>
    kucoinBody
      .parse(body)
      .data.ticker.flatMap((row) => (row.last === null ? [] : separated(row.symbol, "-", row.last, row.volValue, row.takerFeeRate * row.takerCoefficient))),
};

/**
 * The spot tickers of `venue`'s ticker answer (Binance `GET /api/v3/ticker/24hr`, Bybit
 * `GET /v5/market/tickers?category=spot`, OKX `GET /api/v5/market/tickers?instType=SPOT`, Gate
 * `GET /api/v4/spot/tickers`, Bitget `GET /api/v2/spot/market/tickers`, KuCoin
 * `GET /api/v1/market/allTickers`). Throws `VENUE_UNAVAILABLE`
 * on an answer of another shape, so a changed API is seen rather than read as no markets.
 */
export function readSpotTickers(venue: SpotTickerVenue, body: unknown): SpotTickerRow[] {
  try {
    return READERS[venue](body);
  } catch (error) {
    if (error instanceof z.ZodError) throw new AppError("VENUE_UNAVAILABLE", `${venue} spot tickers: unexpected answer (${error.issues[0]?.message ?? "shape"})`);
    throw error;
  }
}
