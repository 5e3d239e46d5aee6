import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { AppError, fieldError } from "@/lib/errors";
import { accountFeeRates } from "@/lib/fees/account-fees";
import { keyModeToDb } from "@/lib/keys/mode";
import type { Market } from "@/lib/market/market";
import { historyEnd } from "@/lib/market/model/history-end";
import { parseCarryOpportunityId } from "@/lib/market/carry/carry-id";
import { resolveLegs } from "@/lib/market/resolve-legs";
import type { OpportunityLeg } from "@/lib/market/model/types";
import { borrowSettlements, carryProjectedLegs } from "./carry-legs";
import { simulateHistorical, type Settlement } from "./historical";
import { simulateProjected, type SimulationParams } from "./projected";
import { liquidationAtEntry, quoteTradeCosts } from "./quote-costs";
import { quoteLegs } from "@/lib/quote/quote-opportunity";
import { MAX_HOLD_HOURS, MAX_QUOTE_NOTIONAL_USD } from "@/lib/quote/quote-schema";
import { simulationResultSchema, type SimulationResult } from "./result-schema";
import { simulationSchema, type Simulation, type SimulationInput } from "./simulation-schema";

// Simulations' operations, shared by /v1/simulations… and the screener's "Simulate" (/api/simulations).
// No HTTP here: callers parse input and shape answers.

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** What a stored simulation's `input` holds beside the result: the request as resolved. */
const storedInputSchema = z.object({
  opportunity_id: z.string().nullable(),
  symbol: z.string(),
  fee_bps: z.number().nullable(),
  slippage_bps: z.number(),
});

/** Runs a simulation for the actor on the actor's market and stores it. */
export async function runSimulation(services: AppServices, actor: Actor, input: SimulationInput): Promise<Simulation> {
  const now = new Date();
  const market = services.market(actor.mode);
  const carryId = input.opportunity_id === undefined ? undefined : parseCarryOpportunityId(input.opportunity_id);
  if (carryId) return store(services, actor, input, carryId.symbol, await simulateCarry(services, actor, market, input, now));
  const { opportunity, long, short } = await resolveLegs(market, input);
  const [longFee, shortFee] = await legFees(services, actor, market, [long, short] as const, now);
  const params: SimulationParams = {
    notionalUsd: input.notional_usd,
    holdingDays: input.holding_days,
    feeBps: input.fee_bps,
    slippageBps: input.slippage_bps,
    ...(input.costs === "order_books" ? await orderBookCosts(services, actor, market, long, short, input) : {}),
  };
  let result: SimulationResult;
  if (input.mode === "projected") {
    const projected = (leg: OpportunityLeg, fee: number | null) => ({
      exchange: leg.exchange,
      market: leg.market,
      fundingRate: leg.funding_rate,
      intervalHours: leg.funding_interval_hours,
      takerFee: fee,
    });
    result = simulateProjected(projected(long, longFee), projected(short, shortFee), params);
  } else {
    // The offline sample's history ends at its as-of, long before now: replaying the days before
    // now would find nothing, so a simulation of the sample ends where its data does.
    const to = historyEnd(await market.opportunities(), now);
    const from = new Date(to.getTime() - input.holding_days * DAY_MS);
    const [longHistory, shortHistory] = await Promise.all([
      settlements(market, opportunity.symbol, long, from, to),
      settlements(market, opportunity.symbol, short, from, to),
    ]);
    const historical = (leg: OpportunityLeg, fee: number | null, history: Settlement[]) => ({
      exchange: leg.exchange,
      market: leg.market,
      takerFee: fee,
      settlements: history,
    });
    result = simulateHistorical(historical(long, longFee, longHistory), historical(short, shortFee, shortHistory), params, to);
  }
  return store(services, actor, input, opportunity.symbol, result);
}

/** Stores a simulation's request, as resolved, beside its result. */
async function store(services: AppServices, actor: Actor, input: SimulationInput, symbol: string, result: SimulationResult): Promise<Simulation> {
  const stored = {
    ...input,
    opportunity_id: input.opportunity_id ?? null,
    symbol,
    fee_bps: input.fee_bps ?? null,
    slippage_bps: input.slippage_bps ?? 0,
  };
  const db = await services.db();
  const row = await db.simulation.create({ data: { userId: actor.userId, keyMode: keyModeToDb(actor.mode), input: stored, result } });
  return toSimulation(row);
}

/**
 * A carry opportunity (a carry id as GET /v1/carry-opportunities lists it) simulated as a pair whose
 * spot side pays no funding when held, or its borrow rate hourly when borrowed (carry-legs.ts).
 * Historical runs replay the perpetual's settlements and, for a `perp_spot`, the borrow rates its
 * spot venue charged each hour as stored (an hour not stored charges nothing, as a settlement not
 * recorded pays nothing). Order-book costs are for perp pairs: a carry trade's
 * books are priced by its quote.
 */
async function simulateCarry(services: AppServices, actor: Actor, market: Market, input: SimulationInput, now: Date): Promise<SimulationResult> {
  const item = (await market.carryOpportunities()).byId(input.opportunity_id!);
  if (!item) throw fieldError("opportunity_id", `No current carry opportunity with id "${input.opportunity_id}"`);
  if (input.costs === "order_books") {
    throw fieldError("costs", "Order-book costs are for perp pairs: price a carry trade's books with GET /v1/carry-opportunities/{id}/quote, and simulate it with fixed costs");
  }
  const [perpFee] = await legFees(services, actor, market, [item.perp] as const, now);
  const legs = carryProjectedLegs(item, { spot: item.spot.taker_fee, perp: perpFee });
  const params: SimulationParams = { notionalUsd: input.notional_usd, holdingDays: input.holding_days, feeBps: input.fee_bps, slippageBps: input.slippage_bps };
  if (input.mode === "projected") return simulateProjected(legs.long, legs.short, params);
  const to = historyEnd(await market.opportunities(), now);
  const from = new Date(to.getTime() - input.holding_days * DAY_MS);
  const perpHistory = await settlements(market, item.symbol, item.perp, from, to);
  if (item.type === "spot_perp") return simulateHistorical({ ...legs.long, settlements: [] }, { ...legs.short, settlements: perpHistory }, params, to);
  // The hours whose interest falls due in (from, to]: those starting from an hour before `from`.
  const borrowed = borrowSettlements(await market.borrowRates(item.spot.exchange, item.symbol, new Date(from.getTime() - HOUR_MS), to));
  return simulateHistorical({ ...legs.long, settlements: perpHistory }, { ...legs.short, settlements: borrowed }, params, to);
}

/**
 * The costs of an `order_books` simulation: a quote of both legs at the whole notional, held for
 * the simulation's days (the quote's funding is not used: the simulation has its own). A thin book
 * is refused rather than costed at a smaller size than the funding is earned on.
 */
async function orderBookCosts(services: AppServices, actor: Actor, market: Market, long: OpportunityLeg, short: OpportunityLeg, input: SimulationInput) {
  if (input.notional_usd > MAX_QUOTE_NOTIONAL_USD) {
    throw fieldError("notional_usd", `Must be at most ${MAX_QUOTE_NOTIONAL_USD} with costs order_books: books are read a few dozen levels deep`);
  }
  const [snapshot, accountFees] = await Promise.all([market.opportunities(), services.db().then((db) => accountFeeRates(db, actor.userId))]);
  const query = { notional: input.notional_usd, hold_hours: Math.min(input.holding_days * 24, MAX_HOLD_HOURS), leverage: input.leverage ?? 1 };
  const { figures, at } = await quoteLegs({ market, snapshot, accountFees }, long, short, query);
  if (figures.thin_book) {
    throw fieldError("notional_usd", `The books hold only ${figures.filled_notional_usd} USD a leg for this pair now: simulate at most that`);
  }
  return { costs: quoteTradeCosts(figures), entryQuote: liquidationAtEntry(figures, at) };
}

/** Each leg's taker fee: the account's own on the venue where set (lib/fees), else the venue's stated fee (null: unknown). */
async function legFees<Legs extends readonly OpportunityLeg[]>(services: AppServices, actor: Actor, market: Market, legs: Legs, now: Date) {
  const own = await accountFeeRates(await services.db(), actor.userId);
  const fees = await Promise.all(legs.map(async (leg) => own.get(leg.exchange) ?? (await market.takerFee(leg, now)) ?? null));
  return fees as { [K in keyof Legs]: number | null };
}

async function settlements(market: Market, symbol: string, leg: OpportunityLeg, from: Date, to: Date): Promise<Settlement[]> {
  return (await market.settlements(symbol, leg, from, to)).map((r) => ({
    time: Date.parse(r.time),
    rate: r.funding_rate,
    intervalHours: r.funding_interval_hours,
  }));
}

/** A page of the actor's stored simulations, newest first, and how many there are. */
export async function listSimulations(services: AppServices, actor: Actor, page: { limit: number; offset: number }) {
  const db = await services.db();
  const where = { userId: actor.userId, keyMode: keyModeToDb(actor.mode) };
  const [rows, total] = await db.$transaction([
    db.simulation.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: page.offset, take: page.limit }),
    db.simulation.count({ where }),
  ]);
  return { items: rows.map(toSimulation), total };
}

/** One of the actor's simulations; another account's, the other mode's or an unknown id is 404. */
export async function getSimulation(services: AppServices, actor: Actor, id: string): Promise<Simulation> {
  const db = await services.db();
  const row = await db.simulation.findFirst({ where: { id, userId: actor.userId, keyMode: keyModeToDb(actor.mode) } });
  if (!row) throw new AppError("NOT_FOUND", "No such simulation");
  return toSimulation(row);
}

/** A Simulation row as the API serves it, parsed through its schema so nothing unlisted leaves. */
function toSimulation(row: { id: string; createdAt: Date; input: unknown; result: unknown }): Simulation {
  return simulationSchema.parse({
    // Results stored before order-book costs existed were all fixed-cost runs.
    ...simulationResultSchema.parse({ costs: "fixed", entry_quote: null, ...(row.result as object) }),
    ...storedInputSchema.parse(row.input),
    id: row.id,
    created_at: row.createdAt.toISOString(),
  });
}
