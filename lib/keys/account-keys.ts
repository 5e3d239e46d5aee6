import { z } from "zod";
import { storableText } from "@/lib/validation";
import { AppError, fieldError } from "@/lib/errors";
import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import type { ApiKey } from "@/lib/db/generated/client";
import { planNames, planOf, plansWith } from "@/lib/plans";
import { generateUniqueApiKey } from "./generate";
import { parseAllowlist } from "./ip-allowlist";
import { keyEvents } from "./key-events";
import { keyModeFromDb, keyModeToDb, KEY_MODES } from "./mode";
import { PERMISSIONS, permissionSchema, tierFromDb, type DbTier, type Permission, type Tier } from "./permissions";

const DAY_MS = 24 * 60 * 60 * 1000;

// API keys' operations for Account → API keys. No HTTP here.

/**
 * What keys' operations read of the actor (lib/actor.ts): the account, its plan, and the
 * credential, since keys are managed by their owner in person: a key may not make, roll or
 * revoke keys. A key's mode is its own, not the actor's: the account area lists both. Spelled out
 * rather than picked from Actor because lib/actor.ts reads lib/keys, and two units must not import
 * each other.
 */
export interface KeyOwner {
  userId: string;
  tier: Tier;
  credential: "key" | "session";
}

/** What keys' operations need of the services (lib/app-services.ts): the database. */
export interface KeyServices {
  db: () => Promise<Db>;
}

/** Keys are the owner's to manage from a signed-in session; an API key cannot create, change or list keys. */
function assertInPerson(owner: KeyOwner): void {
  if (owner.credential !== "session") throw new AppError("FORBIDDEN", "API keys are managed from the account area, signed in");
}

export const ROLL_GRACE_PERIODS = { none: 0, "1h": 60 * 60 * 1000, "24h": DAY_MS, "7d": 7 * DAY_MS } as const;
export type RollGrace = keyof typeof ROLL_GRACE_PERIODS;

/**
 * A key's IP allowlist as the account area sends it: one address or CIDR range per entry, stored
 * in canonical form (lib/keys/ip-allowlist.ts). A list with an invalid entry is refused whole, the
 * message naming each bad entry, on the field itself so the form marks its one text box.
 */
export const allowedIpsSchema = z.array(z.string("Each entry must be text")).transform((entries, ctx) => {
  const parsed = parseAllowlist(entries);
  if (parsed.ok) return parsed.entries;
  ctx.addIssue({ code: "custom", message: parsed.problem });
  return z.NEVER;
});

export const createKeySchema = z.strictObject({
  name: storableText(z.string().trim().min(1, "Name is required").max(64, "Name must be at most 64 characters")),
  mode: z.enum(KEY_MODES, "Mode must be live or test"),
  permissions: z.array(permissionSchema).min(1, "Choose at least one permission"),
  expiry: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("never") }),
    z.strictObject({ kind: z.literal("days"), days: z.union([z.literal(30), z.literal(90)]) }),
    z.strictObject({ kind: z.literal("date"), date: z.iso.date("Expiry date must be a date (YYYY-MM-DD)") }),
  ]),
  allowed_ips: allowedIpsSchema.default([]),
});
// Callers other than the form (tests, scripts) may leave the allowlist out: any address.
export type CreateKeyInput = Omit<z.infer<typeof createKeySchema>, "allowed_ips"> & { allowed_ips?: readonly string[] };

export const updateAllowlistSchema = z.strictObject({ allowed_ips: allowedIpsSchema });

export const rollKeySchema = z.strictObject({
  grace: z.enum(Object.keys(ROLL_GRACE_PERIODS) as [RollGrace, ...RollGrace[]], "Choose a grace period"),
});

export type KeyStatus = "active" | "expired" | "revoked";

/** What the account area shows of a key. Never the hash, never the secret. */
export const keyViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  mode: z.enum(KEY_MODES),
  permissions: z.array(permissionSchema),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(["active", "expired", "revoked"]),
  /** The key's IP allowlist in canonical form; empty: any address. */
  allowed_ips: z.array(z.string()),
});
export type KeyView = z.infer<typeof keyViewSchema>;

/** A key is revoked from `revokedAt` on; a roll sets it in the future to give a grace period. */
export function keyStatus(key: Pick<ApiKey, "revokedAt" | "expiresAt">, now = new Date()): KeyStatus {
  if (key.revokedAt && key.revokedAt <= now) return "revoked";
  if (key.expiresAt && key.expiresAt <= now) return "expired";
  return "active";
}

export function toKeyView(key: ApiKey, now = new Date()): KeyView {
  return keyViewSchema.parse({
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    mode: keyModeFromDb(key.mode),
    permissions: PERMISSIONS.filter((p) => key.permissions.includes(p)),
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    status: keyStatus(key, now),
    allowed_ips: key.allowedCidrs,
  });
}

function activeWhere(userId: string, now: Date) {
  return {
    userId,
    AND: [{ OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] }, { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }],
  };
}

/** The owner's keys of both modes, newest first. */
export async function listKeys(services: KeyServices, owner: KeyOwner): Promise<KeyView[]> {
  assertInPerson(owner);
  const db = await services.db();
  const keys = await db.apiKey.findMany({ where: { userId: owner.userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const now = new Date();
  return keys.map((key) => toKeyView(key, now));
}

function expiryDate(expiry: CreateKeyInput["expiry"], now: Date): Date | null {
  if (expiry.kind === "never") return null;
  if (expiry.kind === "days") return new Date(now.getTime() + expiry.days * DAY_MS);
  const date = new Date(`${expiry.date}T23:59:59.999Z`);
  if (date <= now) {
    throw fieldError("expiry.date", "Expiry date must be in the future");
  }
  return date;
}

/** An allowlist as stored, whoever the caller: parsing is idempotent, so a list the schema already read passes unchanged. */
function canonicalAllowlist(entries: readonly string[]): string[] {
  const parsed = parseAllowlist(entries);
  if (!parsed.ok) throw fieldError("allowed_ips", parsed.problem);
  return parsed.entries;
}

function assertPermissionsAllowed(permissions: readonly Permission[], tier: Tier) {
  const allowed: readonly Permission[] = planOf(tier).permissions;
  const outside = permissions.filter((p) => !allowed.includes(p));
  if (outside.length) {
    throw fieldError("permissions", `Not included in your plan: ${outside.join(", ")}`);
  }
}

type KeyTransaction = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * Runs `write` (which adds at most one active key) only while the account holds fewer active keys
 * than its plan allows. The count and the write are one step per account: the account's row is
 * locked first, as the webhook-endpoint and alert-rule caps do, so concurrent creates and rolls
 * (in any process) queue and each counts the keys the others added. An account above its plan's
 * cap (after a downgrade) keeps its keys, and is refused new ones until it is below the cap.
 */
async function withRoomForKey<T>(
  db: Db,
  userId: string,
  refusal: ((cap: number, plan: string) => string) | null,
  write: (tx: KeyTransaction, now: Date) => Promise<T>,
): Promise<T> {
  return db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ tier: DbTier }[]>`SELECT tier FROM "User" WHERE id = ${userId} FOR UPDATE`;
    if (!row) throw new AppError("NOT_FOUND", "No such account");
    // Read after the lock: keys another transaction added while this one waited are counted, and
    // the plan is the one in force now, not the one the caller's session last saw.
    const now = new Date();
    const plan = planOf(tierFromDb(row.tier));
    if (refusal && (await tx.apiKey.count({ where: activeWhere(userId, now) })) >= plan.maxActiveKeys) {
      throw new AppError("FORBIDDEN", refusal(plan.maxActiveKeys, plan.name));
    }
    return write(tx, now);
  });
}

export const UNVERIFIED_LIVE_KEY_MESSAGE =
  "Verify your e-mail address before creating live keys: follow the link we sent you, or send a new one from the notice above. Test keys work now.";

/**
 * Live keys reach production data and the account's own portfolio, so they need an address the
 * owner proved is theirs. Read from the database, not from what the caller says about the user.
 */
async function assertMayHoldLiveKey(db: Db, userId: string, mode: "live" | "test") {
  if (mode !== "live") return;
  const user = await db.user.findUnique({ where: { id: userId }, select: { emailVerifiedAt: true } });
  if (!user?.emailVerifiedAt) throw fieldError("mode", UNVERIFIED_LIVE_KEY_MESSAGE);
}

function assertApiAccess(tier: Tier) {
  const plan = planOf(tier);
  if (!plan.features.api) throw new AppError("FORBIDDEN", `The ${plan.name} plan has no API access. Upgrade to ${planNames(plansWith("api"), "or")} to create keys.`);
}

interface NewKeyFields {
  name: string;
  mode: "live" | "test";
  permissions: readonly Permission[];
  expiresAt: Date | null;
  allowedCidrs: readonly string[];
}

async function insertKey(db: Pick<Db, "apiKey">, userId: string, fields: NewKeyFields) {
  const generated = await generateUniqueApiKey(fields.mode, async (hash) => (await db.apiKey.count({ where: { hash } })) > 0);
  const record = await db.apiKey.create({
    data: {
      userId,
      name: fields.name,
      mode: keyModeToDb(fields.mode),
      prefix: generated.prefix,
      hash: generated.hash,
      permissions: [...fields.permissions],
      expiresAt: fields.expiresAt,
      allowedCidrs: [...fields.allowedCidrs],
    },
  });
  return { secret: generated.key, record };
}

function alreadyRolled(graceEnd: Date | null): AppError {
  const until = graceEnd ? ` It keeps working until ${graceEnd.toISOString().replace("T", " ").slice(0, 16)} UTC.` : "";
  return new AppError("VALIDATION_ERROR", "This key was already rolled", {
    details: [{ field: "id", message: `This key was already rolled and is in its grace period: roll its replacement instead.${until}` }],
  });
}

/** Creates a key. The full key is in the result once; afterwards only its prefix exists anywhere. */
export async function createKey(services: KeyServices, owner: KeyOwner, input: CreateKeyInput, origin: RequestOrigin): Promise<{ key: string; view: KeyView }> {
  assertInPerson(owner);
  assertApiAccess(owner.tier);
  assertPermissionsAllowed(input.permissions, owner.tier);
  const now = new Date();
  const expiresAt = expiryDate(input.expiry, now);
  const allowedCidrs = canonicalAllowlist(input.allowed_ips ?? []);
  const db = await services.db();
  await assertMayHoldLiveKey(db, owner.userId, input.mode);
  const refusal = (cap: number, plan: string) =>
    `The ${plan} plan allows ${cap} active keys, and this account holds ${cap} or more. Revoke one to create another.`;
  const { secret, record } = await withRoomForKey(db, owner.userId, refusal, async (tx) => {
    const inserted = await insertKey(tx, owner.userId, { ...input, expiresAt, allowedCidrs });
    await recordAudit(tx, { actorId: owner.userId, subjectId: owner.userId, action: "key.created", target: inserted.record.id }, origin);
    return inserted;
  });
  return { key: secret, view: toKeyView(record, now) };
}

/** Revokes one of the owner's keys at once; another account's key id is "not found". Revoking a revoked key changes nothing. */
export async function revokeKey(services: KeyServices, owner: KeyOwner, keyId: string, origin: RequestOrigin): Promise<KeyView> {
  assertInPerson(owner);
  return revoke(await services.db(), owner.userId, owner.userId, keyId, origin);
}

/** An operator revokes any account's key (the route checks the operator); audited as the operator. */
export async function revokeAnyKey(services: KeyServices, operator: KeyOwner, keyId: string, origin: RequestOrigin): Promise<KeyView> {
  assertInPerson(operator);
  return revoke(await services.db(), operator.userId, null, keyId, origin);
}

/** `ownerId` scopes the lookup to one account, null for an operator. */
async function revoke(db: Db, actorId: string, ownerId: string | null, keyId: string, origin: RequestOrigin): Promise<KeyView> {
  const key = await db.apiKey.findFirst({ where: { id: keyId, ...(ownerId ? { userId: ownerId } : {}) } });
  if (!key) throw new AppError("NOT_FOUND", "No such key");
  const now = new Date();
  if (keyStatus(key, now) === "revoked") return toKeyView(key, now);
  const revoked = await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: now } });
  await keyEvents().publish({ keyId: key.id });
  await recordAudit(db, { actorId, subjectId: key.userId, action: "key.revoked", target: key.id }, origin);
  return toKeyView(revoked, now);
}

/**
 * Replaces a key's IP allowlist (empty: any address), stored canonical. In force on the key's next
 * request, in every process, as a revocation is: the verifier's cached copy is dropped before this
 * returns. Narrowing a key is never refused for the plan, like a revocation; a key that no longer
 * works (revoked, expired) has nothing left to restrict.
 */
export async function setKeyAllowlist(services: KeyServices, owner: KeyOwner, keyId: string, requested: readonly string[], origin: RequestOrigin): Promise<KeyView> {
  assertInPerson(owner);
  const entries = canonicalAllowlist(requested);
  const db = await services.db();
  const key = await db.apiKey.findFirst({ where: { id: keyId, userId: owner.userId } });
  if (!key) throw new AppError("NOT_FOUND", "No such key");
  const now = new Date();
  if (keyStatus(key, now) !== "active") {
    throw new AppError("VALIDATION_ERROR", "Only an active key's allowlist can be changed", {
      details: [{ field: "id", message: "This key is not active" }],
    });
  }
  if (key.allowedCidrs.length === entries.length && key.allowedCidrs.every((entry, i) => entry === entries[i])) {
    return toKeyView(key, now);
  }
  const updated = await db.apiKey.update({ where: { id: key.id }, data: { allowedCidrs: entries } });
  await keyEvents().publish({ keyId: key.id });
  await recordAudit(db, { actorId: owner.userId, subjectId: owner.userId, action: "key.allowlist_changed", target: key.id }, origin);
  return toKeyView(updated, now);
}

/**
 * Replaces a key with a new one of the same name, mode, permissions and IP allowlist. The old key
 * keeps working for the grace period and is revoked by time, with no job that could fail to run.
 * Keys in their grace period are active and count toward the plan's cap, so a roll with a grace
 * period needs room for one more key; a key already rolled (in its grace period) cannot be rolled
 * again, which would otherwise let one key multiply into many live secrets.
 */
export async function rollKey(services: KeyServices, owner: KeyOwner, keyId: string, grace: RollGrace, origin: RequestOrigin): Promise<{ key: string; view: KeyView; previous: KeyView }> {
  assertInPerson(owner);
  assertApiAccess(owner.tier);
  const db = await services.db();
  const old = await db.apiKey.findFirst({ where: { id: keyId, userId: owner.userId } });
  if (!old) throw new AppError("NOT_FOUND", "No such key");
  const now = new Date();
  if (keyStatus(old, now) !== "active") throw new AppError("VALIDATION_ERROR", "Only an active key can be rolled", { details: [{ field: "id", message: "This key is not active" }] });
  if (old.revokedAt) throw alreadyRolled(old.revokedAt);
  await assertMayHoldLiveKey(db, owner.userId, keyModeFromDb(old.mode));
  const lifetime = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
  // With no grace period the old key goes as the new one comes: the count stays, even above the cap.
  const refusal =
    ROLL_GRACE_PERIODS[grace] > 0
      ? (cap: number, plan: string) =>
          `The ${plan} plan allows ${cap} active keys, and keys in a grace period count. ` +
          "Roll with no grace period, or revoke a key first."
      : null;
  const { secret, record, previous, at } = await withRoomForKey(db, owner.userId, refusal, async (tx, now) => {
    const graceEnd = new Date(now.getTime() + ROLL_GRACE_PERIODS[grace]);
    // Claim the old key first, on the condition it was not rolled meanwhile: of two racing rolls, one wins.
    const claimed = await tx.apiKey.updateMany({ where: { id: old.id, revokedAt: null }, data: { revokedAt: graceEnd } });
    if (claimed.count !== 1) throw alreadyRolled(null);
    const inserted = await insertKey(tx, owner.userId, {
      name: old.name,
      mode: keyModeFromDb(old.mode),
      permissions: PERMISSIONS.filter((p) => old.permissions.includes(p)),
      expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime),
      allowedCidrs: old.allowedCidrs,
    });
    await recordAudit(tx, { actorId: owner.userId, subjectId: owner.userId, action: "key.rolled", target: `${old.id} -> ${inserted.record.id}` }, origin);
    return { ...inserted, previous: await tx.apiKey.findUniqueOrThrow({ where: { id: old.id } }), at: now };
  });
  await keyEvents().publish({ keyId: old.id });
  return { key: secret, view: toKeyView(record, at), previous: toKeyView(previous, at) };
}
