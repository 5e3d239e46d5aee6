import type { Actor } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { DEFAULT_TAKER_FEE } from "@/lib/market/model/apr";
import { VENUE_IDS } from "@/lib/market/model/types";
import { quoteTakerFee } from "./quote-fee";
import type { AccountFeesUpdate, VenueFees } from "./fee-schema";

// An account's own taker fees per venue: read by quotes and simulations, listed and changed by
// Account → Trading settings and /v1/account/fees. They belong to the account, not to a key mode:
// a test key's quotes charge the same fees as a live key's, so a bot tested in the sandbox sees the
// costs it will pay.

/** The account's own fees, by exchange; a venue without one is absent. One query. */
export async function accountFeeRates(db: Pick<Db, "accountVenueFee">, userId: string): Promise<Map<string, number>> {
  const rows = await db.accountVenueFee.findMany({ where: { userId }, select: { exchange: true, takerFee: true } });
  return new Map(rows.map((r) => [r.exchange, r.takerFee]));
}

/**
 * Each venue's fee as quotes charge it for the actor: the venues with markets in the actor's
 * current set (the venue's base tier read from one of its legs, the way quotes read it) and any
 * venue the account set a fee on, in the service's venue order.
 */
export async function listVenueFees(services: AppServices, actor: Actor): Promise<VenueFees> {
  const market = services.market(actor.mode);
  const [snapshot, rows] = await Promise.all([
    market.opportunities(),
    services.db().then((db) => db.accountVenueFee.findMany({ where: { userId: actor.userId } })),
  ]);
  const own = new Map(rows.map((r) => [r.exchange, r]));
  const legByVenue = snapshot.legsByVenue();
  const at = market.quoteTime(new Date());
  const venues = VENUE_IDS.filter((id) => legByVenue.has(id) || own.has(id));
  const items = await Promise.all(
    venues.map(async (exchange) => {
      const leg = legByVenue.get(exchange);
      const base = leg ? await quoteTakerFee(market, snapshot, leg, at) : ({ rate: DEFAULT_TAKER_FEE, source: "default" } as const);
      const mine = own.get(exchange);
      return {
        exchange,
        venue_taker_fee: base.rate,
        venue_taker_fee_source: base.source === "venue_base_tier" ? ("venue_base_tier" as const) : ("default" as const),
        account_taker_fee: mine?.takerFee ?? null,
        account_fee_updated_at: mine?.updatedAt.toISOString() ?? null,
        taker_fee: mine?.takerFee ?? base.rate,
      };
    }),
  );
  return { items };
}

/**
 * Sets or clears the account's fee on each venue named, in one transaction, and records one audit
 * line naming every change ("binance=0.0004, okx=cleared"). Venues not named keep their fee.
 */
export async function updateAccountFees(services: AppServices, actor: Pick<Actor, "userId">, update: AccountFeesUpdate, origin: RequestOrigin): Promise<void> {
  const { userId } = actor;
  const db = await services.db();
  const changes = Object.entries(update).filter((entry): entry is [string, number | null] => entry[1] !== undefined);
  await db.$transaction(async (tx) => {
    for (const [exchange, takerFee] of changes) {
      if (takerFee === null) await tx.accountVenueFee.deleteMany({ where: { userId, exchange } });
      else {
        await tx.accountVenueFee.upsert({
          where: { userId_exchange: { userId, exchange } },
          create: { userId, exchange, takerFee },
          update: { takerFee },
        });
      }
    }
    const target = changes.map(([exchange, fee]) => `${exchange}=${fee === null ? "cleared" : fee}`).join(", ");
    await recordAudit(tx, { actorId: userId, subjectId: userId, action: "fees.changed", target }, origin);
  });
}
