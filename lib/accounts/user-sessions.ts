import { recordAudit, type RequestOrigin } from "@/lib/audit";
import type { Db } from "@/lib/db";
import { AppError } from "@/lib/errors";

/**
 * How long a browser session may last at all, however active: after this the owner signs in
 * again. Seven days bounds what a stolen cookie is worth while sparing a weekly user daily
 * sign-ins. The next-auth cookie is given the same lifetime (lib/auth/options.ts).
 */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * How long a session may go unused before it ends: a browser left signed in on a shared or lost
 * machine stops working the next day, while someone who uses the app daily is not interrupted.
 */
export const SESSION_IDLE_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * `lastSeenAt` is written at most this often per session, so browsing costs one write a minute
 * rather than one per request; the idle timeout is measured in hours, so a minute is precise enough.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60 * 1000;

/** The user agent is only shown to the owner to tell sessions apart; longer headers are cut. */
const MAX_USER_AGENT_LENGTH = 300;

export interface SessionClient {
  ip?: string | null;
  userAgent?: string | null;
}

/** Records a new browser session at sign-in; its id goes into the session cookie. */
export async function createUserSession(db: Db, userId: string, client: SessionClient = {}, now = new Date()) {
  return db.userSession.create({
    data: {
      userId,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
      ip: client.ip || null,
      // U+0000 cannot be stored by PostgreSQL; a header never legitimately carries it.
      userAgent: client.userAgent ? client.userAgent.replace(/\0/g, "").slice(0, MAX_USER_AGENT_LENGTH) : null,
    },
    select: { id: true },
  });
}

export interface SessionState {
  revokedAt: Date | null;
  expiresAt: Date;
  lastSeenAt: Date;
}

/** Whether a session row still admits its cookie at `now`: not revoked, not past its lifetime, not idle too long. */
export function isSessionActive(session: SessionState, now: Date): boolean {
  if (session.revokedAt) return false;
  if (session.expiresAt.getTime() <= now.getTime()) return false;
  return now.getTime() - session.lastSeenAt.getTime() < SESSION_IDLE_TIMEOUT_MS;
}

/**
 * Whether the session a cookie names still admits it, without recording a use (next-auth's session
 * endpoint, which a browser polls, must neither keep an idle session alive nor re-issue an ended one's cookie).
 */
export async function isUserSessionLive(db: Db, sessionId: string, userId: string, now = new Date()): Promise<boolean> {
  const session = await db.userSession.findUnique({
    where: { id: sessionId },
    select: { userId: true, revokedAt: true, expiresAt: true, lastSeenAt: true },
  });
  return !!session && session.userId === userId && isSessionActive(session, now);
}

/**
 * Checks the session a cookie names and records that it was used. Answers false when the row is
 * missing, belongs to someone else, or is no longer active, so the cookie counts as signed out.
 */
export async function touchUserSession(db: Db, sessionId: string, userId: string, now = new Date()): Promise<boolean> {
  const session = await db.userSession.findUnique({
    where: { id: sessionId },
    select: { userId: true, revokedAt: true, expiresAt: true, lastSeenAt: true },
  });
  if (!session || session.userId !== userId || !isSessionActive(session, now)) return false;
  if (now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    // Conditional on the row still being live, so a touch racing a revocation cannot undo it, and
    // concurrent requests of one browser write once.
    await db.userSession.updateMany({
      where: { id: sessionId, revokedAt: null, lastSeenAt: { lte: new Date(now.getTime() - SESSION_TOUCH_INTERVAL_MS) } },
      data: { lastSeenAt: now },
    });
  }
  return true;
}

/**
 * Ends every live session of a user, except the one named in `except` (the browser that changed
 * its password stays signed in). Answers how many sessions were ended. Used by sign-out
 * everywhere, password change and password reset.
 */
export async function revokeSessions(db: Db, userId: string, options: { except?: string } = {}): Promise<number> {
  const result = await db.userSession.updateMany({
    where: { userId, revokedAt: null, ...(options.except ? { id: { not: options.except } } : {}) },
    data: { revokedAt: new Date() },
  });
  return result.count;
}

/** Ends one session of a user; false when the user has no such live session. */
export async function revokeSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  const result = await db.userSession.updateMany({
    where: { id: sessionId, userId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  return result.count > 0;
}

export interface ActiveSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}

/** The user's sessions that still admit their cookie, most recently used first. */
export async function listActiveSessions(db: Db, userId: string, currentSessionId: string | null, now = new Date()): Promise<ActiveSession[]> {
  const rows = await db.userSession.findMany({
    where: {
      userId,
      revokedAt: null,
      expiresAt: { gt: now },
      lastSeenAt: { gt: new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS) },
    },
    orderBy: { lastSeenAt: "desc" },
    select: { id: true, createdAt: true, lastSeenAt: true, expiresAt: true, ip: true, userAgent: true },
  });
  return rows.map((row) => ({ ...row, current: row.id === currentSessionId }));
}

/**
 * Sign-out from the browser itself (next-auth's signOut event, which has no request at hand: the
 * audit line carries the address and browser the session was opened from).
 */
export async function endOwnSession(db: Db, userId: string, sessionId: string): Promise<void> {
  const session = await db.userSession.findFirst({ where: { id: sessionId, userId, revokedAt: null }, select: { ip: true, userAgent: true } });
  if (!session || !(await revokeSession(db, userId, sessionId))) return;
  await recordAudit(db, { actorId: userId, subjectId: userId, action: "sign_out", target: null }, session);
}

/** "Sign out" next to one session on Account → Security; another user's session is "not found". */
export async function signOutSession(
  db: Db,
  user: { id: string; sessionId: string },
  sessionId: string,
  origin: RequestOrigin,
): Promise<{ id: string; current: boolean }> {
  if (!(await revokeSession(db, user.id, sessionId))) throw new AppError("NOT_FOUND", "No such active session");
  await recordAudit(db, { actorId: user.id, subjectId: user.id, action: "session.revoked", target: null }, origin);
  return { id: sessionId, current: sessionId === user.sessionId };
}

/** "Sign out everywhere": every session of the user ends, this browser's included. */
export async function signOutEverywhere(db: Db, userId: string, origin: RequestOrigin): Promise<{ revoked: number }> {
  const revoked = await revokeSessions(db, userId);
  await recordAudit(db, { actorId: userId, subjectId: userId, action: "sessions.revoked", target: null }, origin);
  return { revoked };
}
