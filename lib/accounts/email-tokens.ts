import { createHash, randomBytes } from "node:crypto";
import { fieldError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import type { EmailTokenPurpose } from "@/lib/db/generated/client";

/** 32 random bytes: guessing one is hopeless, so a fast hash is enough to store it (as with API keys). */
export function newEmailToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashEmailToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Issues a single-use token for `purpose`, replacing any unused one of the same purpose: only the
 * latest link mailed to the owner works. Only its SHA-256 is stored; the token itself goes into
 * the link and nowhere else.
 */
export async function issueEmailToken(db: Db, userId: string, purpose: EmailTokenPurpose, ttlMs: number, now = new Date()): Promise<string> {
  const token = newEmailToken();
  await db.emailToken.deleteMany({ where: { userId, purpose, usedAt: null } });
  await db.emailToken.create({
    data: { userId, purpose, tokenHash: hashEmailToken(token), expiresAt: new Date(now.getTime() + ttlMs) },
  });
  return token;
}

export type EmailTokenState = "valid" | "used" | "expired" | "unknown";

export const TOKEN_MESSAGES: Record<Exclude<EmailTokenState, "valid">, string> = {
  used: "This link has already been used. Each link works once.",
  expired: "This link has expired.",
  unknown: "This link is not valid. Check that you copied all of it, or ask for a new one.",
};

/** What a link's token names, without using it up (a page shows this before asking for input). */
export async function inspectEmailToken(
  db: Db,
  token: unknown,
  purpose: EmailTokenPurpose,
  now = new Date(),
): Promise<{ state: "valid"; id: string; userId: string; email: string } | { state: Exclude<EmailTokenState, "valid"> }> {
  if (typeof token !== "string" || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { state: "unknown" };
  const row = await db.emailToken.findUnique({
    where: { tokenHash: hashEmailToken(token) },
    select: { id: true, userId: true, purpose: true, usedAt: true, expiresAt: true, user: { select: { email: true } } },
  });
  if (!row || row.purpose !== purpose) return { state: "unknown" };
  if (row.usedAt) return { state: "used" };
  if (row.expiresAt <= now) return { state: "expired" };
  return { state: "valid", id: row.id, userId: row.userId, email: row.user.email };
}

/**
 * Uses a token up, once: of two requests racing with the same link, exactly one wins. Throws a
 * field error on `token` saying whether the link was used, expired or never valid.
 */
export async function consumeEmailToken(db: Db, token: unknown, purpose: EmailTokenPurpose, now = new Date()): Promise<{ userId: string; email: string }> {
  const found = await inspectEmailToken(db, token, purpose, now);
  if (found.state !== "valid") throw fieldError("token", TOKEN_MESSAGES[found.state]);
  const claimed = await db.emailToken.updateMany({ where: { id: found.id, usedAt: null }, data: { usedAt: now } });
  if (claimed.count !== 1) throw fieldError("token", TOKEN_MESSAGES.used);
  return { userId: found.userId, email: found.email };
}
