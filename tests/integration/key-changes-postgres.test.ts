import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/keys/generate";
import { KeyEventBus } from "@/lib/keys/key-events";
import { keyModeToDb } from "@/lib/keys/mode";
import { PERMISSIONS } from "@/lib/keys/permissions";
import { KeyVerifier } from "@/lib/keys/verify-key";
import { changeTier } from "@/lib/billing/change-tier";
import { revokeKey } from "@/lib/keys/account-keys";
import { keyEvents } from "@/lib/keys/key-events";
import { dbServices, signedIn } from "@/tests/support/api-fixtures";
import { createServerDatabase, type ServerDatabase } from "@/tests/support/server-database";

const serverUrl = process.env.DATABASE_URL;
const origin = { ip: "198.51.100.7", userAgent: "vitest" };

// LISTEN/NOTIFY needs a PostgreSQL server; CI's second pass sets DATABASE_URL. No Redis anywhere here.
describe.skipIf(!serverUrl)("key changes over PostgreSQL, without Redis", () => {
  let database: ServerDatabase;
  let other: KeyEventBus;
  let verifier: KeyVerifier;

  beforeAll(async () => {
    database = await createServerDatabase(serverUrl!);
    // This process's bus (the one revokeKey and changeTier publish on) and a second process's.
    other = new KeyEventBus();
    await Promise.all([keyEvents().listenPostgres(database.url), other.listenPostgres(database.url)]);
    // A cache lifetime far beyond the test: only the message can drop the entry.
    verifier = new KeyVerifier(async () => database.db, other, { ttlMs: 10 * 60_000 });
  });
  afterAll(async () => {
    await Promise.all([keyEvents().close(), other?.close()]);
    await database?.close();
  });

  async function seedKey(email: string, tier: "PRO" | "DESK" = "DESK") {
    const user = await database.db.user.create({ data: { email, passwordHash: "not-used", tier, emailVerifiedAt: new Date() } });
    const generated = generateApiKey("live");
    const key = await database.db.apiKey.create({
      data: { userId: user.id, name: "k", mode: keyModeToDb("live"), prefix: generated.prefix, hash: generated.hash, permissions: [...PERMISSIONS] },
    });
    return { user, userId: user.id, keyId: key.id, secret: generated.key };
  }

  async function within(ms: number, condition: () => Promise<boolean>): Promise<number> {
    const started = performance.now();
    while (!(await condition())) {
      if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return performance.now() - started;
  }

  it("a revocation reaches another process's verifier within a second", async () => {
    const { user, keyId, secret } = await seedKey("revoked-elsewhere@example.com");
    expect(await verifier.verify(secret)).toMatchObject({ id: keyId });
    await revokeKey(dbServices(database.db), signedIn(user), keyId, origin);
    await within(1_000, async () => (await verifier.verify(secret)) === null);
  });

  it("a tier change reaches another process's verifier within a second", async () => {
    const { userId, secret } = await seedKey("downgraded-elsewhere@example.com");
    expect(await verifier.verify(secret)).toMatchObject({ tier: "desk" });
    await changeTier(database.db, { userId }, { userId, tier: "pro" }, origin);
    await within(1_000, async () => (await verifier.verify(secret))?.tier === "pro");
  });
});
