import type { SpotTickerVenue } from "./read-spot-tickers";

/**
 * A venue's published base-tier spot taker fee: a new account with no volume, no token holdings and
 * no fee paid in the venue's token (each venue takes 20–25 % off for that); decimal, 0.001 = 0.1 %.
 */
interface SpotFeeSchedule {
  taker: number;
  /** Where the figure was read: the venue's page, or the copy of it that was read, labelled. */
  source: string;
  /** YYYY-MM-DD: the date the source states, else the day it was read here. */
  asOf: string;
}

/**
 * Each spot venue's schedule. `null`: no single base-tier figure; KuCoin's spot fee depends on the
 * base coin's class (A/B/C), and its ticker answer states each market's own fee, which
 * `spotLegOf` prefers to any schedule.
 */
export const SPOT_TAKER_FEES: Readonly<Record<SpotTickerVenue, SpotFeeSchedule | null>> = {
  binance: {
    taker: 0.001,
    // Binance's own schedule page (www.binance.com/en/fee/schedule) was not among the stored pages.
    source: "Secondary: Binance Square posts on binance.com (e.g. binance.bh/en-AE/square/post/32297519585338, \"Regular user: Maker 0.1 %, Taker 0.1 %\")",
    asOf: "2026-12-04",
  },
  bybit: {
    taker: 0.001,
    source: "Bybit help centre, Spot trading fees, article 000001175 (Non-VIP, all spot pairs: maker 0.1 %, taker 0.1 %), as stored at testnet.bybit.com/en-US/help-center",
    asOf: "2026-12-04",
  },
  okx: { taker: 0.001, source: "https://www.okx.com/fees (Spot, USDT/USDⓈ/Crypto pairs, regular Lv1: maker 0.080 %, taker 0.100 %)", asOf: "2026-12-04" },
  gate: {
    taker: 0.001,
    // Third-party guides still quote an older 0.2 %; the venue's own pages say 0.1 %.
    source: "https://www.gate.com/en-dubai/fee (VIP 0 spot: maker 0.1 %, taker 0.1 %; the same on miniapp.gatetg.com/es/fee)",
    asOf: "2026-12-04",
  },
  bitget: {
    taker: 0.001,
    source: "https://www.bitget.com/support/articles/12560603776282 (Spot trading fee structure update: Non-VIP maker 0.1 %, taker 0.1 %)",
    asOf: "2023-01-13",
  },
  kucoin: null,
};
