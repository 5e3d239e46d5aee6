import type { Db } from "@/lib/db";
import type { CarryOpportunity } from "../carry/carry-opportunity";
import { rankCarryOpportunities } from "../carry/carry-pairs";
import { storeCarrySet } from "../carry/carry-store";
import type { PairPersistenceStore } from "../persistence/pair-persistence-store";
import type { RoundEvents } from "./round-events";
import type { SpotLegsListener } from "./spot-round";

/** A carry set this process published: what its own Market serves without reading it back. */
export interface PublishedCarry {
  version: number;
  asOf: Date;
  items: readonly CarryOpportunity[];
}

/**
 * What a round does with its spot legs: ranks the carry opportunities of them and its perpetuals
 * (with their persistence: the perpetual's against spot held, or against the asset borrowed on the
 * spot venue), and stores them as the carry set with their change events in one transaction
 * (RoundEvents.prepareCarry), then tells this process's Market.
 */
export function carryRound(options: {
  db: Db;
  events: RoundEvents;
  persistence: PairPersistenceStore;
  priceBound: number | undefined;
  onPublished?: (carry: PublishedCarry) => void;
}): SpotLegsListener {
  return async (spots, perps, at) => {
    const persistence = await options.persistence.current();
    const items = rankCarryOpportunities(perps, spots, {
      priceBound: options.priceBound,
      ...(persistence && { persistence: (long, short) => persistence.persistenceOf(long, short) }),
    });
    const prepared = await options.events.prepareCarry(options.db, items);
    const version = await storeCarrySet(options.db, items, { at, sample: false }, prepared.statements);
    prepared.committed(version);
    options.onPublished?.({ version, asOf: at, items });
  };
}
