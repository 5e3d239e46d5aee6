import type { Db } from "@/lib/db";
import type { CarryColumns } from "../carry/carry-columns";
import { rankCarryColumnsInSlices, type CarryOptions } from "../carry/carry-pairs";
import { storeCarrySet } from "../carry/carry-store";
import type { SpotLeg } from "../carry/spot-leg";
import type { MarketSnapshot } from "../model/types";
import { PublishedArrays, ScratchArrays } from "../opportunities/encoding/scratch-arrays";
import type { PairPersistenceStore } from "../persistence/pair-persistence-store";
import type { RoundEvents } from "./round-events";
import type { SpotLegsListener } from "./spot-round";

/** A carry set this process published: what its own Market serves without reading it back. */
export interface PublishedCarry {
  version: number;
  asOf: Date;
  columns: CarryColumns;
}

/**
 * What a round does with its spot legs: ranks the carry opportunities of them and its perpetuals
 * (with their persistence: the perpetual's against spot held, or against the asset borrowed on the
 * spot venue) and publishes them (`publishCarryRound`), then tells this process's Market.
 */
export function carryRound(options: {
  db: Db;
  events: RoundEvents;
  persistence: PairPersistenceStore;
  priceBound: number | undefined;
  onPublished?: (carry: PublishedCarry) => void;
}): SpotLegsListener {
  // The ranking's working arrays, kept from round to round: rounds rank their carry sets one at a time.
  const working = new ScratchArrays();
  // And the sets' columns (7 MB at 46 venues), each set's written again two published sets later:
  // the set published is served and diffed by the next round's events until the next is published.
  const columns = new PublishedArrays();
  return async (spots, perps, at, legHistory) => {
    const persistence = await options.persistence.current();
    const run = columns.newRun();
    const published = await publishCarryRound(options.db, options.events, spots, perps, at, {
      priceBound: options.priceBound,
      take: working.newRun(),
      takeColumns: run.take,
      ...(legHistory && { marketHistory: legHistory }),
      ...(persistence && { persistence: (long, short) => persistence.persistenceOf(long, short) }),
    });
    run.published();
    options.onPublished?.(published);
  };
}

/**
 * A round's carry set ranked in columns (in slices, the event loop turning between) and stored
 * with its change events in one transaction (RoundEvents.prepareCarry): the whole of a round's carry
 * work, which the market benchmark times too.
 */
export async function publishCarryRound(
  db: Db,
  events: RoundEvents,
  spots: readonly SpotLeg[],
  perps: readonly MarketSnapshot[],
  at: Date,
  options: Pick<CarryOptions, "priceBound" | "persistence" | "take" | "takeColumns" | "marketHistory">,
): Promise<PublishedCarry> {
  const columns = await rankCarryColumnsInSlices(perps, spots, options);
  const prepared = await events.prepareCarry(db, columns);
  const version = await storeCarrySet(db, columns, { at, sample: false }, prepared.statements);
  prepared.committed(version);
  return { version, asOf: at, columns };
}
