import type { Db } from "@/lib/db";
import { eventsAppended } from "@/lib/events/append-events";
import { toPublicEvent } from "@/lib/events/read-events";
import { dbTiersWith } from "@/lib/plans";
import { cooldownKey, planAlerts } from "./alert-match";
import { COOLDOWN_MAX_MINUTES } from "./alert-schema";
import { writeAlerts, type AlertTriggeredData } from "./write-alerts";

const CURSOR_ID = "alerts";

export interface EvaluationResult {
  /** Market events read (a full batch means more may be waiting). */
  events: number;
  alerts: number;
  deliveries: number;
}

/**
 * Reads the market's events past the stored cursor, at most `batch`, and matches them against the
 * enabled event rules (funding_interval, venue; opportunity rules are evaluate-round-alerts.ts's) of accounts on a paid plan: each match outside its cool-down writes an
 * `alert.triggered` event owned by the rule's account (so its keys see it on /v1/events and the
 * stream) and queues a delivery of it to each of the rule's enabled endpoints, whatever types those
 * subscribe to (choosing the endpoint is the subscription). The alert events, the cool-downs, the
 * deliveries with their jobs and the cursor move in one transaction: a crash neither loses an alert
 * nor raises one twice, and the cursor row's lock makes concurrent evaluators (several workers)
 * take turns. Cool-downs are decided by the events' own times, so a batch read again decides alike.
 */
export async function evaluateAlerts(db: Db, batch = 500): Promise<EvaluationResult> {
  const result = await db.$transaction(
    async (tx): Promise<EvaluationResult> => {
      await tx.$executeRaw`INSERT INTO "AlertCursor" (id, sequence) VALUES (${CURSOR_ID}, 0) ON CONFLICT (id) DO NOTHING`;
      const [cursor] = await tx.$queryRaw<{ sequence: bigint }[]>`SELECT sequence FROM "AlertCursor" WHERE id = ${CURSOR_ID} FOR UPDATE`;
      // Only the market's events: alerts never match alerts.
      const events = await tx.marketEvent.findMany({ where: { sequence: { gt: cursor!.sequence }, userId: null }, orderBy: { sequence: "asc" }, take: batch });
      if (events.length === 0) return { events: 0, alerts: 0, deliveries: 0 };
      const rules = await tx.alertRule.findMany({
        where: { enabled: true, kind: { not: "opportunity" }, keyMode: { in: [...new Set(events.map((e) => e.mode))] }, user: { tier: { in: dbTiersWith("alertRules") } } },
        include: { endpoints: { where: { enabled: true }, select: { id: true } } },
      });
      let alerts = 0;
      let deliveries = 0;
      if (rules.length > 0) {
        const since = new Date(events[0]!.createdAt.getTime() - COOLDOWN_MAX_MINUTES * 60_000);
        const cooldowns = await tx.alertCooldown.findMany({ where: { ruleId: { in: rules.map((r) => r.id) }, triggeredAt: { gte: since } } });
        const lastAlerted = new Map(cooldowns.map((c) => [cooldownKey(c.ruleId, c.subject), c.triggeredAt]));
        const planned = planAlerts(events, rules, lastAlerted);
        if (planned.length > 0) {
          const touched = new Map(planned.map((p) => [cooldownKey(p.rule.id, p.subject), p]));
          for (const [key, p] of touched) {
            const triggeredAt = lastAlerted.get(key)!;
            await tx.alertCooldown.upsert({
              where: { ruleId_subject: { ruleId: p.rule.id, subject: p.subject } },
              create: { ruleId: p.rule.id, subject: p.subject, triggeredAt },
              update: { triggeredAt },
            });
          }
          await tx.alertCursor.update({ where: { id: CURSOR_ID }, data: { sequence: events.at(-1)!.sequence } });
          const written = await writeAlerts(
            tx,
            planned.map((p) => {
              const { mode: _mode, ...event } = toPublicEvent(p.event);
              return {
                rule: p.rule,
                data: { rule: { id: p.rule.id, name: p.rule.name }, subject: p.subject, transition: "entered", opportunity: null, event: event as AlertTriggeredData["event"] },
              };
            }),
          );
          alerts = written.alerts;
          deliveries = written.deliveries;
          return { events: events.length, alerts, deliveries };
        }
      }
      await tx.alertCursor.update({ where: { id: CURSOR_ID }, data: { sequence: events.at(-1)!.sequence } });
      return { events: events.length, alerts, deliveries };
    },
    { timeout: 30_000 },
  );
  // This process's streams read the log at once rather than at their next poll.
  if (result.alerts > 0) eventsAppended().notify();
  return result;
}

/** Deletes cool-downs older than the longest a rule may have: they can no longer hold anything back. */
export async function deleteExpiredCooldowns(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.alertCooldown.deleteMany({ where: { triggeredAt: { lt: new Date(now.getTime() - COOLDOWN_MAX_MINUTES * 60_000) } } });
  return count;
}

