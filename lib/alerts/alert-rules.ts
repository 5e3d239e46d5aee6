import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { AlertRule, Prisma } from "@/lib/db/generated/client";
import { AppError, fieldError } from "@/lib/errors";
import { keyModeFromDb, keyModeToDb } from "@/lib/keys/mode";
import { planNames, planOf, plansWith } from "@/lib/plans";
import { assertVerifiedForLive, createWithinCap, type OwnedWhere, type OwnerTransaction, type WebhookOwner, type WebhookServices } from "@/lib/webhooks/webhook-endpoints";
import { CONDITION_FIELDS, KIND_CONDITIONS, type AlertKind, type AlertRuleInput, type AlertRuleUpdate, type AlertRuleView } from "./alert-schema";

// Alert rules' operations, shared by /v1/alert-rules and Account → Alerts. No HTTP here.

/** What rules' operations read of the actor (lib/actor.ts), as for webhook endpoints. */
export type AlertOwner = WebhookOwner;

/** What rules' operations need of the services (lib/app-services.ts): the database. */
export type AlertServices = Pick<WebhookServices, "db">;

type RuleRow = AlertRule & { endpoints: { id: string }[] };

const withEndpoints = { endpoints: { select: { id: true }, orderBy: { createdAt: "asc" } } } satisfies Prisma.AlertRuleInclude;

/** Alert rules come with the plans whose feature says so (lib/plans.ts); the API's writing routes also need a permission. */
export function assertMayUseAlerts(owner: Pick<AlertOwner, "tier">): void {
  if (!planOf(owner.tier).features.alertRules) throw new AppError("FORBIDDEN", `Alert rules come with the ${planNames(plansWith("alertRules"))} plans`);
}

async function findRule(db: Db, owner: AlertOwner, id: string): Promise<RuleRow> {
  const row = await db.alertRule.findFirst({ where: { id, userId: owner.userId, keyMode: keyModeToDb(owner.mode) }, include: withEndpoints });
  if (!row) throw new AppError("NOT_FOUND", "No such alert rule");
  return row;
}

/** One of the owner's rules; another account's, the other mode's or an unknown id is 404. */
export async function getAlertRule(services: AlertServices, owner: AlertOwner, id: string): Promise<AlertRuleView> {
  return toAlertRuleView(await findRule(await services.db(), owner, id));
}

/** The owner's rules of the owner's mode, oldest first. */
export async function listAlertRules(services: AlertServices, owner: AlertOwner): Promise<AlertRuleView[]> {
  const db = await services.db();
  const rows = await db.alertRule.findMany({
    where: { userId: owner.userId, keyMode: keyModeToDb(owner.mode) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: withEndpoints,
  });
  return rows.map(toAlertRuleView);
}

/** Refuses a condition the rule's kind does not look at, naming the field. */
function checkConditions(kind: AlertKind, given: Partial<Record<(typeof CONDITION_FIELDS)[number], unknown>>): void {
  for (const field of CONDITION_FIELDS) {
    const value = given[field];
    const set = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null;
    if (set && !KIND_CONDITIONS[kind].includes(field)) {
      throw fieldError(field, `A rule of kind ${kind} does not use ${field}: it may set ${KIND_CONDITIONS[kind].join(", ")}`);
    }
  }
}

/** Only opportunity rules have a condition to leave: the others alert on events. */
function checkNotifyOnClear(kind: AlertKind, notifyOnClear: boolean | undefined): void {
  if (notifyOnClear && kind !== "opportunity") throw fieldError("notify_on_clear", `A rule of kind ${kind} alerts on events and has no condition to clear`);
}

/** Each id must be one of the owner's endpoints of the same mode; an unknown one is named. */
async function checkEndpoints(db: Prisma.TransactionClient | Db, owner: AlertOwner, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.webhookEndpoint.findMany({ where: { id: { in: [...ids] }, userId: owner.userId, keyMode: keyModeToDb(owner.mode) }, select: { id: true } });
  const known = new Set(found.map((e) => e.id));
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) throw fieldError("endpoint_ids", `No such webhook endpoint of this mode: ${unknown}`);
}

/** Adds a rule, within the plan's cap per mode. */
export async function createAlertRule(services: AlertServices, owner: AlertOwner, input: AlertRuleInput, origin: RequestOrigin): Promise<AlertRuleView> {
  assertMayUseAlerts(owner);
  const db = await services.db();
  await assertVerifiedForLive(db, owner);
  checkConditions(input.kind, input);
  checkNotifyOnClear(input.kind, input.notify_on_clear);
  const limit = { cap: planOf(owner.tier).alertRules, what: "alert rules", count: (tx: OwnerTransaction, where: OwnedWhere) => tx.alertRule.count({ where }) };
  const row = await createWithinCap(db, owner, limit, async (tx) => {
    await checkEndpoints(tx, owner, input.endpoint_ids);
    const created = await tx.alertRule.create({
      data: {
        userId: owner.userId,
        keyMode: keyModeToDb(owner.mode),
        name: input.name,
        kind: input.kind,
        symbol: input.symbol ?? null,
        exchanges: input.exchanges ?? [],
        minNetApr: input.min_net_apr ?? null,
        minPaidShare7d: input.min_paid_share_7d ?? null,
        minPositiveHours: input.min_positive_hours ?? null,
        minOpenInterestUsd: input.min_open_interest_usd ?? null,
        cooldownMinutes: input.cooldown_minutes,
        notifyOnClear: input.notify_on_clear ?? false,
        enabled: input.enabled,
        endpoints: { connect: input.endpoint_ids.map((id) => ({ id })) },
      },
      include: withEndpoints,
    });
    await recordAudit(tx, { actorId: owner.userId, subjectId: owner.userId, action: "alert_rule.created", target: auditTarget(created) }, origin);
    return created;
  });
  return toAlertRuleView(row);
}

/**
 * Changes any of a rule's name, conditions, endpoints, cool-down and enabled flag (its kind stays).
 * Audited: its endpoints say where the account's alerts are sent.
 */
export async function updateAlertRule(services: AlertServices, owner: AlertOwner, id: string, update: AlertRuleUpdate, origin: RequestOrigin): Promise<AlertRuleView> {
  assertMayUseAlerts(owner);
  const db = await services.db();
  await assertVerifiedForLive(db, owner);
  const row = await findRule(db, owner, id);
  checkConditions(row.kind as AlertKind, update);
  checkNotifyOnClear(row.kind as AlertKind, update.notify_on_clear);
  if (update.endpoint_ids) await checkEndpoints(db, owner, update.endpoint_ids);
  // A changed rule starts afresh: what was inside the old condition says nothing about the new one
  // (an opportunity inside both alerts once more).
  await db.alertRuleState.deleteMany({ where: { ruleId: row.id } });
  const updated = await db.alertRule.update({
    where: { id: row.id },
    data: {
      ...(update.name !== undefined && { name: update.name }),
      ...(update.symbol !== undefined && { symbol: update.symbol }),
      ...(update.exchanges !== undefined && { exchanges: update.exchanges }),
      ...(update.min_net_apr !== undefined && { minNetApr: update.min_net_apr }),
      ...(update.min_paid_share_7d !== undefined && { minPaidShare7d: update.min_paid_share_7d }),
      ...(update.min_positive_hours !== undefined && { minPositiveHours: update.min_positive_hours }),
      ...(update.min_open_interest_usd !== undefined && { minOpenInterestUsd: update.min_open_interest_usd }),
      ...(update.cooldown_minutes !== undefined && { cooldownMinutes: update.cooldown_minutes }),
      ...(update.notify_on_clear !== undefined && { notifyOnClear: update.notify_on_clear }),
      ...(update.enabled !== undefined && { enabled: update.enabled }),
      ...(update.endpoint_ids !== undefined && { endpoints: { set: update.endpoint_ids.map((endpointId) => ({ id: endpointId })) } }),
    },
    include: withEndpoints,
  });
  const changed = Object.keys(update).filter((field) => update[field as keyof AlertRuleUpdate] !== undefined);
  await recordAudit(db, { actorId: owner.userId, subjectId: owner.userId, action: "alert_rule.updated", target: `${auditTarget(updated)}: ${changed.join(", ")}` }, origin);
  return toAlertRuleView(updated);
}

/** Removes a rule and its cool-downs; alerts it raised stay in the log until they expire. */
export async function deleteAlertRule(services: AlertServices, owner: AlertOwner, id: string, origin: RequestOrigin) {
  const db = await services.db();
  const row = await findRule(db, owner, id);
  const { count } = await db.alertRule.deleteMany({ where: { id: row.id } });
  if (count === 0) throw new AppError("NOT_FOUND", "No such alert rule"); // deleted by a racing request
  await recordAudit(db, { actorId: owner.userId, subjectId: owner.userId, action: "alert_rule.deleted", target: auditTarget(row) }, origin);
  return { id: row.id, deleted: true as const };
}

/** How the audit trail names a rule: its id and name. */
function auditTarget(rule: Pick<AlertRule, "id" | "name">): string {
  return `${rule.id} (${rule.name})`;
}

export function toAlertRuleView(row: RuleRow): AlertRuleView {
  return {
    id: row.id,
    mode: keyModeFromDb(row.keyMode),
    name: row.name,
    kind: row.kind as AlertKind,
    symbol: row.symbol,
    exchanges: row.exchanges,
    min_net_apr: row.minNetApr,
    min_paid_share_7d: row.minPaidShare7d,
    min_positive_hours: row.minPositiveHours,
    min_open_interest_usd: row.minOpenInterestUsd,
    endpoint_ids: row.endpoints.map((e) => e.id),
    cooldown_minutes: row.cooldownMinutes,
    notify_on_clear: row.notifyOnClear,
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
