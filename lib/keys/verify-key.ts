import type { Db } from "@/lib/db";
import { hashApiKey } from "./hash";
import { compileAllowlist, type AllowlistMatcher } from "./ip-allowlist";
import type { KeyEventBus, KeyChange } from "./key-events";
import { keyModeFromDb, type KeyMode } from "./mode";
import { effectivePermissions, tierFromDb, type Permission, type Tier } from "./permissions";

export interface VerifiedKey {
  id: string;
  userId: string;
  mode: KeyMode;
  tier: Tier;
  /** What the key may do now: its own permissions cut down to the account's tier. */
  permissions: Permission[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The addresses the key accepts requests from, parsed once per load; null accepts any address. */
  ipAllowlist: AllowlistMatcher | null;
}

interface Entry {
  key: VerifiedKey | null; // null: no such key (negative cache)
  cachedAt: number;
}

export interface KeyVerifierOptions {
  /** Safety net only: changes arrive through the event bus; this bounds a missed message. */
  ttlMs?: number;
  negativeTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Turns a well-formed key into its account, tier, permissions and IP allowlist, keeping the
 * database off the hot path: answers are cached by key hash and dropped synchronously when a key
 * is revoked or rolled, when its IP allowlist is edited, or when its account's tier changes.
 * Expiry and a roll's scheduled revocation are checked against the clock on every call, so they
 * need no message at all.
 */
export class KeyVerifier {
  private readonly byHash = new Map<string, Entry>();
  private readonly hashById = new Map<string, string>();
  private readonly hashesByUser = new Map<string, Set<string>>();
  private generation = 0;
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: () => Promise<Db>,
    events: KeyEventBus,
    options: KeyVerifierOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.negativeTtlMs = options.negativeTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
    events.subscribe((change) => this.forget(change));
  }

  /** The key if it exists and is in force now; null for unknown, revoked and expired keys. */
  async verify(rawKey: string): Promise<VerifiedKey | null> {
    return this.verifyHash(hashApiKey(rawKey));
  }

  /**
   * The key with this id if it is in force now, for a credential that names a key rather than
   * carrying it (a stream token): one lookup of its hash, then the same cache and checks as `verify`.
   */
  async verifyId(id: string): Promise<VerifiedKey | null> {
    const row = await (await this.db()).apiKey.findUnique({ where: { id }, select: { hash: true } });
    return row ? this.verifyHash(row.hash) : null;
  }

  private async verifyHash(hash: string): Promise<VerifiedKey | null> {
    const now = this.now();
    let entry = this.byHash.get(hash);
    if (!entry || now - entry.cachedAt >= (entry.key ? this.ttlMs : this.negativeTtlMs)) {
      entry = await this.load(hash, now);
    }
    const key = entry.key;
    if (!key) return null;
    if (key.revokedAt && key.revokedAt.getTime() <= now) return null;
    if (key.expiresAt && key.expiresAt.getTime() <= now) return null;
    return key;
  }

  /**
   * The key if this process already holds it as in force, without asking the database: what lets
   * the failed-key throttle admit a valid key whose bucket others' forgeries filled.
   */
  cachedValid(rawKey: string): VerifiedKey | null {
    const entry = this.byHash.get(hashApiKey(rawKey));
    const now = this.now();
    const key = entry && now - entry.cachedAt < this.ttlMs ? entry.key : null;
    if (!key || (key.revokedAt && key.revokedAt.getTime() <= now) || (key.expiresAt && key.expiresAt.getTime() <= now)) return null;
    return key;
  }

  private async load(hash: string, now: number): Promise<Entry> {
    const generation = this.generation;
    const row = await (await this.db()).apiKey.findUnique({
      where: { hash },
      select: {
        id: true,
        userId: true,
        mode: true,
        permissions: true,
        expiresAt: true,
        revokedAt: true,
        allowedCidrs: true,
        user: { select: { tier: true } },
      },
    });
    const key: VerifiedKey | null = row && {
      id: row.id,
      userId: row.userId,
      mode: keyModeFromDb(row.mode),
      tier: tierFromDb(row.user.tier),
      permissions: effectivePermissions(row.permissions, tierFromDb(row.user.tier)),
      expiresAt: row.expiresAt,
      revokedAt: row.revokedAt,
      ipAllowlist: compileAllowlist(row.allowedCidrs),
    };
    const entry = { key, cachedAt: now };
    // A change published while we were reading may not be in `row`: use it once, cache nothing.
    if (generation === this.generation) this.remember(hash, entry);
    return entry;
  }

  private remember(hash: string, entry: Entry) {
    if (this.byHash.size >= this.maxEntries) this.evict(this.byHash.keys().next().value!);
    this.byHash.set(hash, entry);
    if (entry.key) {
      this.hashById.set(entry.key.id, hash);
      let hashes = this.hashesByUser.get(entry.key.userId);
      if (!hashes) this.hashesByUser.set(entry.key.userId, (hashes = new Set()));
      hashes.add(hash);
    }
  }

  private evict(hash: string) {
    const key = this.byHash.get(hash)?.key;
    this.byHash.delete(hash);
    if (!key) return;
    this.hashById.delete(key.id);
    this.hashesByUser.get(key.userId)?.delete(hash);
  }

  private forget(change: KeyChange) {
    this.generation++;
    if (change.keyId) {
      const hash = this.hashById.get(change.keyId);
      if (hash) this.evict(hash);
    }
    if (change.userId) {
      for (const hash of [...(this.hashesByUser.get(change.userId) ?? [])]) this.evict(hash);
      this.hashesByUser.delete(change.userId);
    }
  }
}
