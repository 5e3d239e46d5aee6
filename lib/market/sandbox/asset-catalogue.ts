/**
 * The sandbox's assets, largest first (position = size rank, which scales volume and open
 * interest), with a reference price in USD per token around which the sandbox price wanders.
 * Tickers and price levels look like a real 2025 perp universe so client code meets realistic
 * magnitudes (BTC near 1e5, PEPE near 1e-5); the numbers are not market data.
 */
export const ASSET_CATALOGUE: ReadonlyArray<readonly [ticker: string, referencePriceUsd: number]> = [
  ["BTC", 97_000], ["ETH", 3_400], ["SOL", 190], ["XRP", 2.35], ["BNB", 650], ["DOGE", 0.32],
  ["ADA", 0.9], ["TRX", 0.25], ["LINK", 22], ["AVAX", 35], ["SUI", 4.2], ["TON", 5.5],
  ["HYPE", 25], ["XLM", 0.42], ["HBAR", 0.28], ["DOT", 7.1], ["LTC", 105], ["BCH", 450],
  ["PEPE", 0.000018], ["SHIB", 0.000022], ["UNI", 13], ["NEAR", 5.2], ["APT", 9.4], ["AAVE", 320],
  ["ICP", 10.5], ["ETC", 27], ["TAO", 450], ["ONDO", 1.4], ["POL", 0.45], ["RENDER", 7.2],
  ["ARB", 0.75], ["FIL", 5.1], ["ATOM", 6.5], ["ENA", 0.92], ["WLD", 2.3], ["OP", 1.9],
  ["INJ", 24], ["SEI", 0.45], ["TIA", 5.1], ["IMX", 1.3], ["STX", 1.6], ["GRT", 0.21],
  ["FET", 1.3], ["BONK", 0.000032], ["FLOKI", 0.00017], ["WIF", 2.1], ["JUP", 0.9], ["PYTH", 0.38],
  ["LDO", 1.8], ["RUNE", 4.5], ["ALGO", 0.38], ["KAS", 0.12], ["VET", 0.045], ["MKR", 1_600],
  ["QNT", 110], ["EGLD", 35], ["SAND", 0.55], ["MANA", 0.5], ["AXS", 6.5], ["THETA", 2],
  ["FLOW", 0.75], ["XTZ", 1.2], ["EOS", 0.8], ["NEO", 14], ["KAVA", 0.5], ["CRV", 0.85],
  ["SNX", 2.2], ["COMP", 80], ["GALA", 0.035], ["CHZ", 0.09], ["APE", 1.2], ["DYDX", 1.4],
  ["GMX", 25], ["PENDLE", 5.2], ["JTO", 3.1], ["STRK", 0.45], ["ZK", 0.18], ["ZRO", 5.5],
  ["W", 0.3], ["ETHFI", 2.1], ["EIGEN", 3.5], ["VIRTUAL", 2.5], ["AI16Z", 0.8], ["FARTCOIN", 0.9],
  ["POPCAT", 0.6], ["TRUMP", 18], ["MOODENG", 0.25], ["GOAT", 0.4], ["PNUT", 0.6], ["ACT", 0.35],
  ["NEIRO", 0.0012], ["TURBO", 0.008], ["BRETT", 0.13], ["MEW", 0.008], ["BOME", 0.008], ["DOGS", 0.0006],
  ["NOT", 0.006], ["PEOPLE", 0.05], ["ORDI", 35], ["SATS", 0.0003], ["RATS", 0.00015], ["LUNC", 0.00009],
  ["XEC", 0.00003], ["1INCH", 0.45], ["ZRX", 0.5], ["BAT", 0.25], ["ENS", 35], ["LRC", 0.22],
  ["SUSHI", 1.3], ["YFI", 9_000], ["BAL", 2.5], ["UMA", 2.8], ["API3", 1.6], ["BAND", 1.5],
  ["AR", 20], ["ROSE", 0.09], ["ONE", 0.025], ["CELO", 0.7], ["ZIL", 0.022], ["IOTA", 0.3],
  ["ICX", 0.2], ["ONT", 0.25], ["QTUM", 3.5], ["ZEC", 55], ["DASH", 35], ["XMR", 200],
  ["KSM", 30], ["MINA", 0.6], ["ASTR", 0.06], ["GLMR", 0.25], ["CFX", 0.15], ["CKB", 0.012],
  ["CORE", 1.1], ["BLUR", 0.25], ["MAGIC", 0.5], ["GMT", 0.15], ["SSV", 25], ["RPL", 10],
  ["LPT", 13], ["ANKR", 0.035], ["STORJ", 0.5], ["SKL", 0.05], ["CELR", 0.015], ["COTI", 0.1],
  ["HOT", 0.0022], ["RVN", 0.02], ["JASMY", 0.035], ["IOTX", 0.04], ["ACH", 0.025], ["AGLD", 1.5],
  ["ALT", 0.12], ["MANTA", 0.8], ["DYM", 1.6], ["PIXEL", 0.12], ["PORTAL", 0.35], ["AEVO", 0.35],
  ["SAGA", 1.5], ["OMNI", 6], ["REZ", 0.04], ["BB", 0.3], ["IO", 2.1], ["ZETA", 0.6],
  ["LISTA", 0.4], ["BANANA", 45], ["ARKM", 1.6], ["CYBER", 2.7], ["ID", 0.3], ["EDU", 0.6],
  ["HOOK", 0.4], ["HIGH", 1.5], ["MAV", 0.2], ["XAI", 0.25], ["ACE", 1.5], ["NFP", 0.2],
  ["AI", 0.4], ["MOVE", 0.9], ["ME", 4], ["USUAL", 0.9], ["PENGU", 0.035], ["BIO", 0.5],
  ["S", 0.7], ["BERA", 7], ["IP", 5], ["KAITO", 1.5], ["LAYER", 2.5], ["ANIME", 0.03],
  ["RED", 0.7], ["MORPHO", 2], ["VANA", 12], ["GRASS", 2.5], ["DRIFT", 1.1], ["SPX", 0.8],
  ["AIXBT", 0.4], ["COOKIE", 0.35], ["HMSTR", 0.004], ["ZEREBRO", 0.3],
  // Fixtures for client tests (see edge-cases.ts): synthetic names so nobody mistakes them for data.
  ["SBXNEG", 1.25], ["SBXSOLO", 0.42], ["SBXHOUR", 3.7], ["SBXSHIFT", 0.85],
];
