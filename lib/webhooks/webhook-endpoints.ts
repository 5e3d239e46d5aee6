import type { Actor } from "@/lib/actor";
import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { WebhookEndpoint } from "@/lib/db/generated/client";
import { AppError, fieldError } from "@/lib/errors";
import { keyModeFromDb, keyModeToDb } from "@/lib/keys/mode";
import { planNames, planOf, plansWith } from "@/lib/plans";
import type { RateLimiter } from "@/lib/ratelimit";
import { urlProblem } from "./send-webhook";
import { subscribedTypeSchema, type EndpointInput, type EndpointUpdate, type EndpointView } from "./webhook-schema";
import { newSigningSecret } from "./webhook-signature";

// Webhook endpoints' operations, shared by /v1/webhook-endpoints and Account → Webhooks. No HTTP here.

/** What endpoints' operations read of the actor (lib/actor.ts): the account, its mode (a key's, or live for a session) and its plan. */
export type WebhookOwner = Pick<Actor, "userId" | "mode" | "tier">;

/** What webhooks' operations need of the services (lib/app-services.ts), bound once: the database, the manual sends' limiter, whether private URLs are allowed. */
export interface WebhookServices {
  db: () => Promise<Db>;
  limiter: RateLimiter;
  allowPrivateWebhookUrls: boolean;
}

/** The owner's endpoint in the owner's mode; another account's, the other mode's or an unknown id is 404. */
export async function findEndpoint(db: Db, owner: WebhookOwner, id: string): Promise<WebhookEndpoint> {
  const row = await db.webhookEndpoint.findFirst({ where: { id, userId: owner.userId, keyMode: keyModeToDb(owner.mode) } });
  if (!row) throw new AppError("NOT_FOUND", "No such webhook endpoint");
  return row;
}

/** One of the owner's endpoints as the API serves it. */
export async function getEndpoint(services: Pick<WebhookServices, "db">, owner: WebhookOwner, id: string): Promise<EndpointView> {
  return toEndpointView(await findEndpoint(await services.db(), owner, id));
}

/** The owner's endpoints of the owner's mode, oldest first. */
export async function listEndpoints(services: Pick<WebhookServices, "db">, owner: WebhookOwner): Promise<EndpointView[]> {
  const db = await services.db();
  const rows = await db.webhookEndpoint.findMany({
    where: { userId: owner.userId, keyMode: keyModeToDb(owner.mode) },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => toEndpointView(row));
}

/** Adds an endpoint with a new signing secret, returned this once. */
export async function createEndpoint(services: Pick<WebhookServices, "db" | "allowPrivateWebhookUrls">, owner: WebhookOwner, input: EndpointInput, origin: RequestOrigin): Promise<EndpointView & { secret: string }> {
  const db = await dbForChange(services, owner);
  checkUrl(input.url, services.allowPrivateWebhookUrls);
  const secret = newSigningSecret();
  const limit = { cap: planOf(owner.tier).webhookEndpoints, what: "webhook endpoints", count: (tx: OwnerTransaction, where: OwnedWhere) => tx.webhookEndpoint.count({ where }) };
  const row = await createWithinCap(db, owner, limit, async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: {
        userId: owner.userId,
        keyMode: keyModeToDb(owner.mode),
        url: input.url,
        description: input.description ?? null,
        eventTypes: input.event_types,
        secret,
      },
    });
    await recordAudit(tx, { actorId: owner.userId, subjectId: owner.userId, action: "webhook.created", target: auditTarget(created) }, origin);
    return created;
  });
  return { ...toEndpointView(row), secret };
}

export type OwnerTransaction = Parameters<Parameters<Db["$transaction"]>[0]>[0];
/** What an owner's rows of one mode are found by. */
export type OwnedWhere = { userId: string; keyMode: ReturnType<typeof keyModeToDb> };

/**
 * Runs `create` once the owner holds fewer than `cap` of `what` in its mode: the count and the
 * insert in one step per account (its row locked), so two racing creations cannot both pass the cap.
 */
export async function createWithinCap<T>(
  db: Db,
  owner: WebhookOwner,
  limit: { cap: number; what: string; count: (tx: OwnerTransaction, where: OwnedWhere) => Promise<number> },
  create: (tx: OwnerTransaction) => Promise<T>,
): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${owner.userId} FOR UPDATE`;
    if ((await limit.count(tx, { userId: owner.userId, keyMode: keyModeToDb(owner.mode) })) >= limit.cap) {
      const where = owner.mode === "test" ? " in test mode" : "";
      throw new AppError("FORBIDDEN", `Your plan allows ${limit.cap} ${limit.what}${where}: delete one to add another`);
    }
    return create(tx);
  });
}

/**
 * Changes an endpoint's URL, event types, description or whether it is enabled. Audited like its
 * creation: a new URL is where the account's events go from now on.
 */
export async function updateEndpoint(
  services: Pick<WebhookServices, "db" | "allowPrivateWebhookUrls">,
  owner: WebhookOwner,
  id: string,
  update: EndpointUpdate,
  origin: RequestOrigin,
): Promise<EndpointView> {
  const { db, endpoint: row } = await endpointToChange(services, owner, id);
  if (update.url !== undefined) checkUrl(update.url, services.allowPrivateWebhookUrls);
  const updated = await db.webhookEndpoint.update({
    where: { id: row.id },
    data: {
      ...(update.url !== undefined && { url: update.url }),
      ...(update.event_types !== undefined && { eventTypes: update.event_types }),
      ...(update.description !== undefined && { description: update.description }),
      // Enabling again starts the failure count afresh; disabling by hand is not "failing".
      ...(update.enabled !== undefined && { enabled: update.enabled, disabledReason: null, ...(update.enabled && { failingSince: null }) }),
    },
  });
  const changed = Object.keys(update).filter((field) => update[field as keyof EndpointUpdate] !== undefined);
  const moved = updated.url !== row.url ? `, was ${row.url}` : "";
  await recordAudit(db, { actorId: owner.userId, subjectId: owner.userId, action: "webhook.updated", target: `${auditTarget(updated)}: ${changed.join(", ")}${moved}` }, origin);
  return toEndpointView(updated);
}

/** Removes an endpoint and its delivery log. */
export async function deleteEndpoint(services: Pick<WebhookServices, "db">, owner: WebhookOwner, id: string, origin: RequestOrigin) {
  const db = await services.db();
  const row = await findEndpoint(db, owner, id);
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id: row.id } });
  if (count === 0) throw new AppError("NOT_FOUND", "No such webhook endpoint"); // deleted by a racing request
  await recordAudit(db, { actorId: owner.userId, subjectId: owner.userId, action: "webhook.deleted", target: auditTarget(row) }, origin);
  return { id: row.id, deleted: true as const };
}

/**
 * Replaces the signing secret; the previous one keeps signing beside it for `overlapHours` (0: it
 * stops at once), so receivers can switch without missing a delivery. Answers the new secret once.
 */
export async function rollEndpointSecret(services: Pick<WebhookServices, "db">, owner: WebhookOwner, id: string, overlapHours: number, origin: RequestOrigin, now = new Date()) {
  const { db, endpoint: row } = await endpointToChange(services, owner, id);
  const secret = newSigningSecret();
  const overlapUntil = overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null;
  const updated = await db.webhookEndpoint.update({
    where: { id: row.id },
    data: { secret, previousSecret: overlapUntil ? row.secret : null, previousSecretExpiresAt: overlapUntil },
  });
  await recordAudit(db, { actorId: owner.userId, subjectId: owner.userId, action: "webhook.secret_rolled", target: auditTarget(row) }, origin);
  return { ...toEndpointView(updated, now), secret };
}

/** What every change of the owner's webhooks checks first: the plan includes them, and live mode needs a verified address. */
async function dbForChange(services: Pick<WebhookServices, "db">, owner: WebhookOwner): Promise<Db> {
  assertMayUseWebhooks(owner);
  const db = await services.db();
  await assertVerifiedForLive(db, owner);
  return db;
}

/** The owner's endpoint about to be changed or sent to, once `dbForChange`'s checks pass, with the database it was read from. */
export async function endpointToChange(services: Pick<WebhookServices, "db">, owner: WebhookOwner, id: string): Promise<{ db: Db; endpoint: WebhookEndpoint }> {
  const db = await dbForChange(services, owner);
  return { db, endpoint: await findEndpoint(db, owner, id) };
}

/** The secrets that sign now: the current one, and the previous one during a roll's overlap. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, "secret" | "previousSecret" | "previousSecretExpiresAt">, now: Date): string[] {
  const previous = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}

/** Webhooks come with the plans whose feature says so (lib/plans.ts); the API's routes also need a permission. */
export function assertMayUseWebhooks(owner: Pick<WebhookOwner, "tier">): void {
  if (!planOf(owner.tier).features.webhooks) throw new AppError("FORBIDDEN", `Webhooks come with the ${planNames(plansWith("webhooks"))} plans`);
}

export const UNVERIFIED_LIVE_PUSH_MESSAGE =
  "Verify your e-mail address before using live webhooks and alert rules: follow the link we sent you, or send a new one from your account. Test keys' webhooks work now.";

/**
 * Live webhooks and alert rules make the service send requests on the account's word, so they need
 * an address the owner proved is theirs, as live keys do. The domain operations check it (read
 * from the database, not from the caller), so /v1 and the web app refuse alike; test mode is open.
 */
export async function assertVerifiedForLive(db: Db, owner: Pick<WebhookOwner, "userId" | "mode">): Promise<void> {
  if (owner.mode !== "live") return;
  const user = await db.user.findUnique({ where: { id: owner.userId }, select: { emailVerifiedAt: true } });
  if (!user?.emailVerifiedAt) throw new AppError("FORBIDDEN", UNVERIFIED_LIVE_PUSH_MESSAGE);
}

/** How the audit trail names an endpoint: its id and URL. */
export function auditTarget(endpoint: Pick<WebhookEndpoint, "id" | "url">): string {
  return `${endpoint.id} (${endpoint.url})`;
}

function checkUrl(url: string, allowPrivate: boolean): void {
  const problem = urlProblem(new URL(url), allowPrivate);
  if (problem) throw fieldError("url", problem);
}

export function toEndpointView(row: WebhookEndpoint, now = new Date()): EndpointView {
  const overlap = row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt.toISOString() : null;
  return {
    id: row.id,
    mode: keyModeFromDb(row.keyMode),
    url: row.url,
    description: row.description,
    event_types: row.eventTypes.flatMap((type) => {
      const parsed = subscribedTypeSchema.safeParse(type);
      return parsed.success ? [parsed.data] : [];
    }),
    enabled: row.enabled,
    disabled_reason: row.disabledReason === "failing" ? "failing" : null,
    previous_secret_expires_at: overlap,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
