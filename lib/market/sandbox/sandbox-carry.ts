import { roundTo } from "@/lib/round";
import { annualisedBorrowPct, type SpotLeg } from "../carry/spot-leg";
import type { HourlyBorrowRate } from "../market";
import { SANDBOX_HISTORY_HOURS } from "./sandbox-funding-history";
import { CarrySnapshot } from "../carry/carry-query";
import { rankCarryColumns } from "../carry/carry-pairs";
import { SPOT_TAKER_FEES } from "../carry/spot-taker-fees";
import type { SpotTickerVenue } from "../carry/read-spot-tickers";
import type { MarketSnapshot, VenueId } from "../model/types";
import { unitPrice } from "../opportunities/rank-opportunities";
import { DEFAULT_SANDBOX_SEED, generateSandboxMarket } from "./generate-sandbox-market";
import { hashText, unitOf } from "./random";
import { MINUTE_MS, utcMinute } from "./utc-minute";

/** The sandbox's spot venues: those whose spot answers live carry reads, under their perp venue's id. */
const SPOT_VENUES: ReadonlyMap<string, SpotTickerVenue> = new Map<VenueId, SpotTickerVenue>([
  ["binance", "binance"],
  ["bybit", "bybit"],
  ["okx", "okx"],
  ["gate", "gate"],
  ["bitget", "bitget"],
  ["kucoinfutures", "kucoin"],
]);

/** Spot trades within ±15 bps of the perpetual's mark, as the basis of a liquid asset does. */
const MAX_BASIS = 0.0015;
/** How many of a venue's spot markets lend their asset on margin. */
const MARGIN_SHARE = 0.7;
/** Hourly borrow rates up to this: 0 to ~17.5 % a year. */
const MAX_HOURLY_BORROW = 0.00002;
/** KuCoin states each market's own fee (no schedule): the sandbox charges its common 0.1 %. */
const UNSCHEDULED_TAKER_FEE = 0.001;

const HOUR_MS = 3_600_000;

const Stream = { Basis: 1, Volume: 2, Margin: 3, Borrow: 4, Borrowable: 5 } as const;

/**
 * The sandbox's spot markets of one minute: on each spot venue, a USDT market for every crypto
 * asset whose perpetual the venue lists, priced within a few bps of that perpetual and moving with
 * it, most of them with a margin borrow rate (per hour, as Binance states it) and an amount lent.
 * Deterministic, as the sandbox's perpetuals are: a pure function of the seed, the asset, the venue
 * and the minute.
 */
export function sandboxSpotLegs(perps: readonly MarketSnapshot[], at: Date, seed = DEFAULT_SANDBOX_SEED): SpotLeg[] {
  const seedKey = hashText(`${seed}:carry`);
  const minute = utcMinute(at);
  const legs = new Map<string, SpotLeg>();
  for (const perp of perps) {
    const spotVenue = SPOT_VENUES.get(perp.exchange);
    const price = unitPrice(perp);
    if (!spotVenue || (perp.underlyingClass ?? "crypto") !== "crypto" || Number.isNaN(price) || price <= 0) continue;
    const key = `${perp.exchange}\u0000${perp.base}`;
    if (legs.has(key)) continue;
    const draw = (stream: number, perMinute = true) => unitOf(seedKey, hashText(key), stream, perMinute ? minute : 0);
    const borrowRate = hourlyBorrowRate(seedKey, perp.exchange, perp.base, minute);
    const observedAt = new Date(perp.observedAt).toISOString();
    legs.set(key, {
      exchange: perp.exchange as VenueId,
      market: `${perp.base}/USDT`,
      base: perp.base,
      quote: "USDT",
      price: Number((price * (1 + (draw(Stream.Basis) * 2 - 1) * MAX_BASIS)).toPrecision(10)),
      volume24hUsd: perp.volume24hUsd === null ? null : roundTo(perp.volume24hUsd * (0.2 + draw(Stream.Volume, false) * 0.6), 2),
      takerFee: SPOT_TAKER_FEES[spotVenue]?.taker ?? UNSCHEDULED_TAKER_FEE,
      borrow:
        borrowRate === null
          ? null
          : {
              asset: perp.base,
              rate: borrowRate,
              period: "hour",
              // About $50k to $5M of the asset.
              borrowable: roundTo((50_000 * 100 ** draw(Stream.Borrowable, false)) / price, 6),
              source: "sandbox",
              observedAt,
            },
      observedAt,
    });
  }
  return [...legs.values()];
}

/** The hourly rate at which `exchange` lends `asset` in `minute`; null where it does not lend it. */
function hourlyBorrowRate(seedKey: number, exchange: string, asset: string, minute: number): number | null {
  const key = hashText(`${exchange}\u0000${asset}`);
  if (unitOf(seedKey, key, Stream.Margin, 0) >= MARGIN_SHARE) return null;
  return roundTo(unitOf(seedKey, key, Stream.Borrow, minute) * MAX_HOURLY_BORROW, 10);
}

/**
 * The borrow rates a live process would have stored for the sandbox's spot venue `exchange` and
 * `asset`: for each whole hour in [from, to) within the 7 days of history the sandbox keeps before
 * `to` (as its settlements), the rate of the hour's last minute (a live round's last of the hour
 * overwrites the others). Nothing where the venue has no spot market or does not lend the asset.
 */
export function sandboxBorrowRates(exchange: string, asset: string, from: Date, to: Date, seed = DEFAULT_SANDBOX_SEED): HourlyBorrowRate[] {
  if (!SPOT_VENUES.has(exchange)) return [];
  const seedKey = hashText(`${seed}:carry`);
  const [end, lastMinute] = [to.getTime(), utcMinute(to)];
  const rates: HourlyBorrowRate[] = [];
  const first = Math.max(Math.ceil(from.getTime() / HOUR_MS), Math.floor(end / HOUR_MS) - SANDBOX_HISTORY_HOURS) * HOUR_MS;
  for (let hour = first; hour < end; hour += HOUR_MS) {
    // The hour in progress at `to` has its rate of `to`'s minute so far.
    const rate = hourlyBorrowRate(seedKey, exchange, asset, Math.min((hour + HOUR_MS) / MINUTE_MS - 1, lastMinute));
    if (rate === null) return [];
    rates.push({ time: hour, aprPct: annualisedBorrowPct(rate, "hour") });
  }
  return rates;
}

let current: CarrySnapshot | undefined;

/** What test keys read as carry: the carry set of the sandbox's market of the current minute, built once a minute. */
export function sandboxCarrySnapshot(at: Date): CarrySnapshot {
  const asOf = new Date(utcMinute(at) * MINUTE_MS);
  if (current?.asOf !== asOf.toISOString()) {
    const { snapshots } = generateSandboxMarket(asOf);
    current = new CarrySnapshot(rankCarryColumns(snapshots, sandboxSpotLegs(snapshots, asOf)), asOf.toISOString(), false);
  }
  return current;
}
