import { readEventsConfig } from "@/lib/config/events-config";
import type { Db } from "@/lib/db";
import type { Prisma } from "@/lib/db/generated/client";
import { eventsAppended } from "@/lib/events/append-events";
import { sandboxTickStart } from "@/lib/events/sandbox-tick-events";
import { readIngestConfig } from "@/lib/market/ingest/ingest-config";
import { servedAt } from "@/lib/market/model/leg-freshness";
import { cellReader, columnsOf, idReader, itemReader, type OpportunityColumns } from "@/lib/market/opportunities/opportunity-columns";
import { load, loadHead } from "@/lib/market/opportunities/store";
import { SANDBOX_STALE_AFTER_MS } from "@/lib/market/sandbox/sandbox-market";
import { sandboxItems } from "@/lib/market/sandbox/sandbox-snapshot";
import type { KeyMode } from "@/lib/keys/mode";
import type { Opportunity } from "@/lib/market/model/types";
import { dbTiersWith } from "@/lib/plans";
import { evaluateCrossings, indexRound, type OpportunityValues } from "./alert-crossings";
import { writeAlerts, type AlertToWrite } from "./write-alerts";

/** A round to evaluate: its number (the live set's version, the sandbox tick's start), when it was published, its items. */
interface Round {
  number: bigint;
  at: Date;
  staleAfterMs: number;
  /** Its items and `data_as_of`, read only when a rule needs them; null when the round was replaced since. */
  items: (tx: Prisma.TransactionClient) => Promise<{ columns: OpportunityColumns; asOf: string | null } | null>;
}

export interface RoundEvaluationResult {
  /** Rounds evaluated (0 to 2: each mode's newest, when not yet evaluated). */
  rounds: number;
  alerts: number;
  deliveries: number;
}

export interface RoundAlertOptions {
  now?: number;
  /** When a live leg turns stale, for the alerted opportunity's flags (three ingestion intervals). */
  liveStaleAfterMs?: number;
  sandboxTickMs?: number;
}

const cursorId = (mode: KeyMode) => `rounds:${mode}`;

/**
 * Evaluates every enabled opportunity rule against each mode's newest published round (the live
 * set, the sandbox's current tick) once, across every process: the round's number is kept in
 * AlertCursor, whose row each evaluation locks, and each rule's subjects inside its condition in
 * AlertRuleState, so a restart or another process decides the next round from the same state.
 * Crossings (alert-crossings.ts) write `alert.triggered` events and deliveries in the same
 * transaction as the state, the cool-downs and the cursor: a crash neither loses nor repeats one.
 * Every round is evaluated, whether or not any change event was written for it; only a round
 * replaced before any process looked (two publishes within one poll) is skipped.
 */
export async function evaluateRoundAlerts(db: Db, options: RoundAlertOptions = {}): Promise<RoundEvaluationResult> {
  const now = options.now ?? Date.now();
  const total: RoundEvaluationResult = { rounds: 0, alerts: 0, deliveries: 0 };
  for (const mode of ["live", "test"] as const) {
    const round = mode === "live" ? await liveRound(db, options) : sandboxRound(now, options);
    if (!round) continue;
    const done = await db.alertCursor.findUnique({ where: { id: cursorId(mode) }, select: { sequence: true } });
    if (done && done.sequence >= round.number) continue;
    const result = await evaluateRound(db, mode, round);
    total.rounds += result.rounds;
    total.alerts += result.alerts;
    total.deliveries += result.deliveries;
  }
  // This process's streams read the log at once rather than at their next poll.
  if (total.alerts > 0) eventsAppended().notify();
  return total;
}

async function liveRound(db: Db, options: RoundAlertOptions): Promise<Round | null> {
  const set = await loadHead(db);
  // The bundled sample is no market to alert on.
  if (!set || set.sample || set.version === 0) return null;
  return {
    number: BigInt(set.version),
    at: set.updatedAt,
    staleAfterMs: options.liveStaleAfterMs ?? 3 * readIngestConfig().INGEST_INTERVAL_MS,
    // In the evaluation's transaction: on the embedded database another connection would wait for it.
    items: async (tx) => {
      const stored = await load(tx);
      // Replaced since: the next evaluation takes the newer one.
      return stored && stored.version === set.version ? { columns: stored.columns, asOf: set.asOf.toISOString() } : null;
    },
  };
}

function sandboxRound(now: number, options: RoundAlertOptions): Round {
  const tick = sandboxTickStart(now, options.sandboxTickMs ?? readEventsConfig().SANDBOX_TICK_MS);
  return {
    number: BigInt(tick.getTime()),
    at: tick,
    staleAfterMs: SANDBOX_STALE_AFTER_MS,
    items: async () => {
      const { asOf, items } = sandboxItems(tick);
      return { columns: columnsOf(items), asOf };
    },
  };
}

type IndexedValues = OpportunityValues & { index: number };

/** The values the conditions read, for each item of the round, with its position. */
function roundValues(columns: OpportunityColumns): IndexedValues[] {
  const id = idReader(columns);
  const [netApr, oi, paid, since] = [
    cellReader(columns, "net_apr"),
    cellReader(columns, "open_interest_usd"),
    cellReader(columns, "persistence.paid_share_7d"),
    cellReader(columns, "persistence.positive_since"),
  ];
  const number = (v: unknown) => (typeof v === "number" ? v : null);
  return Array.from({ length: columns.count }, (_, i): IndexedValues => ({
    index: i,
    id: id(i),
    symbol: columns.texts[columns.symbol[i]!]!,
    longExchange: columns.legs[columns.long[i]!]!.exchange,
    shortExchange: columns.legs[columns.short[i]!]!.exchange,
    netApr: number(netApr(i)) ?? -Infinity,
    openInterestUsd: number(oi(i)),
    paidShare7d: number(paid(i)),
    positiveSince: typeof since(i) === "string" ? (since(i) as string) : null,
  }));
}

async function evaluateRound(db: Db, mode: KeyMode, round: Round): Promise<RoundEvaluationResult> {
  const keyMode = mode === "live" ? "LIVE" : "TEST";
  return db.$transaction(
    async (tx): Promise<RoundEvaluationResult> => {
      const id = cursorId(mode);
      await tx.$executeRaw`INSERT INTO "AlertCursor" (id, sequence) VALUES (${id}, 0) ON CONFLICT (id) DO NOTHING`;
      const [cursor] = await tx.$queryRaw<{ sequence: bigint }[]>`SELECT sequence FROM "AlertCursor" WHERE id = ${id} FOR UPDATE`;
      // Another process evaluated it while this one waited for the lock.
      if (cursor!.sequence >= round.number) return { rounds: 0, alerts: 0, deliveries: 0 };
      // A rule watches rounds published from when it was made.
      const rules = await tx.alertRule.findMany({
        where: { enabled: true, kind: "opportunity", keyMode, user: { tier: { in: dbTiersWith("alertRules") } }, createdAt: { lte: round.at } },
        include: { endpoints: { where: { enabled: true }, select: { id: true } } },
      });
      if (rules.length === 0) {
        await tx.alertCursor.update({ where: { id }, data: { sequence: round.number } });
        return { rounds: 1, alerts: 0, deliveries: 0 };
      }
      const read = await round.items(tx);
      if (!read) return { rounds: 0, alerts: 0, deliveries: 0 };
      const { columns, asOf } = read;
      const index = indexRound(roundValues(columns));
      const ruleIds = rules.map((r) => r.id);
      const states = await tx.alertRuleState.findMany({ where: { ruleId: { in: ruleIds } }, select: { ruleId: true, subject: true } });
      const cooldowns = await tx.alertCooldown.findMany({ where: { ruleId: { in: ruleIds } }, select: { ruleId: true, subject: true, triggeredAt: true } });
      const item = itemReader(columns);
      const alerts: AlertToWrite[] = [];
      const entered: Prisma.AlertRuleStateCreateManyInput[] = [];
      const alerted: { ruleId: string; subject: string }[] = [];
      for (const rule of rules) {
        const inside = new Set(states.filter((s) => s.ruleId === rule.id).map((s) => s.subject));
        const lastAlerted = new Map(cooldowns.filter((c) => c.ruleId === rule.id).map((c) => [c.subject, c.triggeredAt]));
        const result = evaluateCrossings(rule, { inside, lastAlerted }, index, round.at);
        for (const subject of result.entered) entered.push({ ruleId: rule.id, subject, enteredAt: round.at });
        if (result.left.length > 0) await tx.alertRuleState.deleteMany({ where: { ruleId: rule.id, subject: { in: result.left } } });
        for (const fire of result.fires) {
          if (fire.transition === "entered") alerted.push({ ruleId: rule.id, subject: fire.subject });
          alerts.push({
            rule: { userId: rule.userId, keyMode, endpoints: rule.endpoints },
            data: {
              rule: { id: rule.id, name: rule.name },
              subject: fire.subject,
              transition: fire.transition,
              opportunity: fire.values ? served(item(fire.values.index), round, asOf) : null,
              event: null,
            },
          });
        }
      }
      if (entered.length > 0) await tx.alertRuleState.createMany({ data: entered, skipDuplicates: true });
      for (const { ruleId, subject } of alerted) {
        await tx.alertCooldown.upsert({
          where: { ruleId_subject: { ruleId, subject } },
          create: { ruleId, subject, triggeredAt: round.at },
          update: { triggeredAt: round.at },
        });
      }
      await tx.alertCursor.update({ where: { id }, data: { sequence: round.number } });
      const written = await writeAlerts(tx, alerts);
      return { rounds: 1, ...written };
    },
    { timeout: 60_000 },
  );
}

/** The opportunity as GET /v1/opportunities served it when the round was published. */
function served(opportunity: Opportunity, round: Round, asOf: string | null) {
  const freshness = { at: round.at.getTime(), staleAfterMs: round.staleAfterMs };
  return servedAt(opportunity, asOf, freshness);
}
