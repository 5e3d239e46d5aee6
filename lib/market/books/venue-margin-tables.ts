import { singleTierFromMaxLeverage, withLadderDeductions, type ListedTier, type MarginTable } from "./margin-table";

type Row = Record<string, unknown>;

/**
 * An asset's margin table from Hyperliquid's `meta` (the first element of `metaAndAssetCtxs`):
 * the universe entry named `coin` names its `marginTableId`, and `marginTables` lists that table's
 * `marginTiers`, each from its `lowerBound` (USD notional) with its `maxLeverage`. Per Hyperliquid's
 * documentation ("Margin tiers") a tier keeps half the initial margin at its maximum leverage as
 * maintenance, 1 / (2 × max leverage), less the deduction that keeps the margin continuous at each
 * lower bound (the ladder of withLadderDeductions). An id with no table listed (Hyperliquid lists
 * only its tiered tables; an untiered asset's id is its maximum leverage) is the asset's one tier
 * at its `maxLeverage`. Undefined when the coin is not in the universe.
 */
export function hyperliquidMarginTable(meta: unknown, coin: string): MarginTable | undefined {
  const body = (meta ?? {}) as { universe?: Row[]; marginTables?: [unknown, { marginTiers?: Row[] }][] };
  const asset = body.universe?.find((a) => a.name === coin);
  if (!asset) return undefined;
  const table = body.marginTables?.find(([id]) => id === asset.marginTableId)?.[1]?.marginTiers;
  const listed: ListedTier[] = (table ?? []).flatMap((tier, i, all) => {
    const maxLeverage = Number(tier.maxLeverage);
    const floor = Number(tier.lowerBound);
    if (!(maxLeverage > 0) || !(floor >= 0)) return [];
    const next = all[i + 1];
    return [{ floor, cap: next ? Number(next.lowerBound) : null, maintenanceMarginRate: 1 / (2 * maxLeverage), maxLeverage }];
  });
  if (listed.length === 0) {
    const max = Number(asset.maxLeverage);
    return max > 0 ? singleTierFromMaxLeverage(max) : undefined;
  }
  return { available: true, source: "leverage_tiers", boundsIn: "quote", tiers: withLadderDeductions(listed) };
}

/**
 * The initial margin fraction dYdX v4 asks of a new position: the market's `initialMarginFraction`,
 * raised by open interest where the market has open-interest caps (dydxprotocol/v4-chain
 * `proto/dydxprotocol/perpetuals/perpetual.proto`, LiquidityTier: "IMF is not affected when OI <=
 * open_interest_lower_cap", "IMF scales linearly to 100% as OI approaches open_interest_upper_cap",
 * "if zero, then the IMF does not scale with OI"). The indexer states the caps in USD, the open
 * interest in the coin: its notional is open interest × oracle price.
 */
export function dydxInitialMarginFraction(market: Row): number | undefined {
  const base = Number(market.initialMarginFraction);
  if (!(base > 0 && base <= 1)) return undefined;
  const lower = Number(market.openInterestLowerCap);
  const upper = Number(market.openInterestUpperCap);
  if (!(upper > lower && lower >= 0)) return base;
  const openInterestUsd = Number(market.openInterest) * Number(market.oraclePrice);
  if (!Number.isFinite(openInterestUsd)) return base;
  const scale = Math.min(1, Math.max(0, (openInterestUsd - lower) / (upper - lower)));
  return base + (1 - base) * scale;
}

/**
 * A dYdX v4 market's margin from its indexer entry (`GET /v4/perpetualMarkets`): one tier for any
 * size, maintenance at `maintenanceMarginFraction` of the value at the mark (oracle) price, and a
 * maximum leverage of 1 / the initial margin fraction in force (dydxInitialMarginFraction), to the
 * hundredth below. Undefined when the entry has no usable fractions.
 */
export function dydxMarginTable(market: Row): MarginTable | undefined {
  const initial = dydxInitialMarginFraction(market);
  const maintenance = Number(market.maintenanceMarginFraction);
  if (initial === undefined || !(maintenance > 0 && maintenance < 1)) return undefined;
  const maxLeverage = Math.floor((1 / initial) * 100 + 1e-9) / 100;
  return {
    available: true,
    source: "leverage_tiers",
    boundsIn: "quote",
    tiers: [{ floor: 0, cap: null, maintenanceMarginRate: maintenance, maxLeverage, maintenanceAmount: 0 }],
  };
}
