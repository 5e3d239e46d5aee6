import type { Db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/generate";
import { keyModeToDb } from "@/lib/keys/mode";
import { PERMISSIONS, tierToDb, type Tier } from "@/lib/keys/permissions";

export interface SeededAccount {
  userId: string;
  tier: Tier;
  /** The account's live key, holding every permission. */
  secret: string;
}

/**
 * One account per entry of `tiers`, e-mailed `${name}-${i}@${domain}`, each with one live key holding
 * every permission: what benchmarks and soak runs load a server with, in three statements whatever
 * the count. `verified` marks the e-mail addresses verified.
 */
export async function seedAccountsWithKeys(
  db: Db,
  tiers: Tier[],
  { name, domain, keyName, verified = false }: { name: string; domain: string; keyName: string; verified?: boolean },
): Promise<SeededAccount[]> {
  const emailOf = (i: number) => `${name}-${i}@${domain}`;
  await db.user.createMany({
    data: tiers.map((tier, i) => ({ email: emailOf(i), passwordHash: "not-used", tier: tierToDb(tier), ...(verified && { emailVerifiedAt: new Date() }) })),
  });
  const users = await db.user.findMany({ where: { email: { endsWith: `@${domain}` } }, select: { id: true, email: true } });
  const idByEmail = new Map(users.map((u) => [u.email, u.id]));
  const keys = tiers.map((tier, i) => ({ tier, generated: generateApiKey("live"), userId: idByEmail.get(emailOf(i))! }));
  await db.apiKey.createMany({
    data: keys.map(({ generated, userId }) => ({
      userId,
      name: keyName,
      mode: keyModeToDb(generated.mode),
      prefix: generated.prefix,
      hash: generated.hash,
      permissions: [...PERMISSIONS],
    })),
  });
  return keys.map(({ tier, generated, userId }) => ({ userId, tier, secret: generated.key }));
}
