import type { Db } from "@/lib/db";
import { toKeyView, type KeyView } from "@/lib/keys/account-keys";
import { tierFromDb, type Tier } from "@/lib/keys/permissions";

export const SEARCH_LIMIT = 50;
export const MAX_QUERY_LENGTH = 254;

export interface UserMatch {
  id: string;
  email: string;
  tier: Tier;
  createdAt: Date;
  keys: KeyView[];
}

export interface UserSearch {
  query: string;
  users: UserMatch[];
  /** How many accounts match in all; more than `users.length` when the list was cut at SEARCH_LIMIT. */
  total: number;
}

/** LIKE's own wildcards, typed by an operator, are meant literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Accounts whose e-mail contains `query`, ignoring case, in e-mail order, each with all its keys
 * (newest first, revoked ones included: an operator investigating a leak needs the history).
 * A blank query finds nothing rather than listing every account.
 */
export async function searchUsers(db: Db, rawQuery: string, now: Date = new Date()): Promise<UserSearch> {
  const query = rawQuery.trim().slice(0, MAX_QUERY_LENGTH);
  if (!query) return { query, users: [], total: 0 };
  const where = { email: { contains: escapeLike(query), mode: "insensitive" as const } };
  const [rows, total] = await Promise.all([
    db.user.findMany({
      where,
      orderBy: { email: "asc" },
      take: SEARCH_LIMIT,
      select: {
        id: true,
        email: true,
        tier: true,
        createdAt: true,
        apiKeys: { orderBy: [{ createdAt: "desc" }, { id: "desc" }] },
      },
    }),
    db.user.count({ where }),
  ]);
  return {
    query,
    total,
    users: rows.map((row) => ({
      id: row.id,
      email: row.email,
      tier: tierFromDb(row.tier),
      createdAt: row.createdAt,
      keys: row.apiKeys.map((key) => toKeyView(key, now)),
    })),
  };
}
