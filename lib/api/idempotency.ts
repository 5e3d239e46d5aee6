import { startPeriodicTask, type PeriodicTask } from "@/lib/process/periodic-task";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db";
import { keyModeToDb } from "@/lib/keys/mode";
import type { VerifiedKey } from "@/lib/keys/verify-key";
import { AppError } from "@/lib/errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** What an Idempotency-Key may be: 1 to 255 visible ASCII characters (the document states this pattern too). */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);
/** How long a repeat waits for the first request with its key to finish before answering 409. */
const WAIT_MS = 10_000;
const POLL_MS = 25;
/**
 * A pending record this old belongs to a process that died mid-request (the work is a few database
 * writes): the key is freed rather than answering 409 for the rest of its 24 hours.
 */
const ABANDONED_MS = 60_000;

/** What is replayed: the first response's status, `data` and the route's own `meta` fields. */
export interface StoredResponse {
  status: 200 | 201;
  data: unknown;
  meta?: Record<string, unknown>;
  /**
   * The answer carries a secret shown once (a webhook signing secret): it is not stored, only the
   * created or changed resource's id, and a repeat answers 409 naming it rather than the secret again.
   */
  showsSecretOnce?: boolean;
}

/** What a repeat of a request whose answer held a secret shown once is told. */
export function secretNotReplayedMessage(id: string): string {
  return (
    `A request with this Idempotency-Key already succeeded (${id}); the secret it answered is shown only once and is not kept ` +
    "for replays. Read the resource by its id, and roll its secret if the first answer was lost."
  );
}

/** method + path + SHA-256 of the body as sent: the same key with any other request is a conflict. */
export function requestFingerprint(method: string, path: string, body: string): string {
  return `${method.toUpperCase()} ${path} ${createHash("sha256").update(body).digest("hex")}`;
}

/** The header's value, checked: 1 to 255 visible ASCII characters. */
export function parseIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new AppError("VALIDATION_ERROR", "Invalid Idempotency-Key header", {
      details: [{ field: IDEMPOTENCY_HEADER, message: `Must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters` }],
    });
  }
  return value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` at most once per (account, key mode, Idempotency-Key) within 24 hours. A pending
 * record is inserted first and the unique constraint picks one winner among racing requests; the
 * others poll until the winner stores its response and replay it (or, if it is still running after
 * 10 s, get 409 IDEMPOTENCY_CONFLICT saying so). A request with the same key but another method,
 * path or body is 409 at once. An answer holding a secret shown once is stored as its resource's id
 * alone, and its repeats are 409 naming that id. When `work` fails the record is removed, so nothing is stored for a
 * failed request and a retry with the same key runs it afresh.
 */
export async function runIdempotent(
  db: Db,
  key: VerifiedKey,
  idempotencyKey: string,
  fingerprint: string,
  work: () => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  const scope = { userId: key.userId, keyMode: keyModeToDb(key.mode), key: idempotencyKey };
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const expired = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
    const abandoned = new Date(Date.now() - ABANDONED_MS);
    await db.idempotencyRecord.deleteMany({
      where: { ...scope, OR: [{ createdAt: { lt: expired } }, { responseStatus: null, createdAt: { lt: abandoned } }] },
    });
    const { count } = await db.idempotencyRecord.createMany({ data: [{ ...scope, fingerprint }], skipDuplicates: true });
    if (count === 1) break;
    const existing = await db.idempotencyRecord.findUnique({ where: { userId_keyMode_key: scope } });
    if (!existing) continue; // the first request failed and let go of the key: claim it
    if (existing.fingerprint !== fingerprint) throw new AppError("IDEMPOTENCY_CONFLICT");
    if (existing.responseStatus !== null) {
      const withheld = (existing.responseBody as { withheld?: { id: string } }).withheld;
      if (withheld) throw new AppError("IDEMPOTENCY_CONFLICT", secretNotReplayedMessage(withheld.id));
      return { ...(existing.responseBody as Omit<StoredResponse, "status">), status: existing.responseStatus as 200 | 201, replayed: true };
    }
    if (Date.now() > deadline) {
      throw new AppError("IDEMPOTENCY_CONFLICT", "A request with this Idempotency-Key is still in progress; retry later");
    }
    await sleep(POLL_MS);
  }

  let response: StoredResponse;
  try {
    response = await work();
  } catch (error) {
    await db.idempotencyRecord.deleteMany({ where: { ...scope, responseStatus: null } });
    throw error;
  }
  const body = response.showsSecretOnce
    ? { withheld: { id: String((response.data as { id: unknown }).id) } }
    : JSON.parse(JSON.stringify({ data: response.data, ...(response.meta && { meta: response.meta }) }));
  await db.idempotencyRecord.update({
    where: { userId_keyMode_key: scope },
    data: { responseStatus: response.status, responseBody: body },
  });
  return { ...response, replayed: false };
}

/**
 * Deletes every stored response older than IDEMPOTENCY_TTL_MS, and pending records a dead process
 * left behind: a key is only ever reused within 24 h, so without this the table grows forever.
 * Returns how many rows went.
 */
export async function purgeExpiredIdempotencyRecords(db: Db, now: number = Date.now()): Promise<number> {
  const { count } = await db.idempotencyRecord.deleteMany({
    where: {
      OR: [
        { createdAt: { lt: new Date(now - IDEMPOTENCY_TTL_MS) } },
        { responseStatus: null, createdAt: { lt: new Date(now - ABANDONED_MS) } },
      ],
    },
  });
  return count;
}

/** How often the server sweeps: the table holds at most a day and an hour of responses. */
export const IDEMPOTENCY_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Purges at start and then every hour, in the background (never keeping the process alive). With
 * several servers on one PostgreSQL each sweeps; the deletes are idempotent and cheap.
 */
export function startIdempotencySweep(db: Db, intervalMs = IDEMPOTENCY_SWEEP_INTERVAL_MS): PeriodicTask {
  return startPeriodicTask("purging idempotency records", intervalMs, () => purgeExpiredIdempotencyRecords(db));
}
