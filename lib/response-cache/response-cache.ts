import { ByteBudgetLru, type LruStats } from "./byte-budget-lru";
import { CachedBody } from "./cached-body";

/** What /healthz reports about the cache. */
export interface ResponseCacheStats extends LruStats {
  /** Answers served from an entry (or from one being built) since the process started. */
  hits: number;
  /** Entries built: first requests after a publish, new queries, expired or evicted entries. */
  misses: number;
}

/** Where an answer is kept. */
export interface CacheAddress {
  /**
   * What versions belong to, e.g. a key mode: when a new version of a scope appears, the scope's
   * entries of older versions are dropped, since nothing will ask for them again.
   */
  scope: string;
  /**
   * The object standing for the version of the data, e.g. the published opportunity set: an entry
   * built on one object is never served once the scope has moved to another.
   */
  version: object;
  /** Everything else the answer depends on: the operation, its normalised query and path parameters. */
  key: string;
}

/** What a build produces: the answer around the part each response writes (see CachedBody). */
export interface BodyParts {
  before: string;
  after: string;
  /** Epoch ms after which the answer must be rebuilt even without a publish; never, when absent. */
  validUntil?: number;
  /** What the entity tag is the hash of in place of `before` (see CachedBody); `before` when absent. */
  tagSource?: string;
}

interface Entry {
  body: CachedBody;
  scope: string;
  generation: number;
}

/**
 * Answers built once per version of the data they come from, kept in memory under a byte budget
 * (least recently used first out). Versions are objects (the published set held in memory), told
 * apart by identity: each new one gets the next generation number, which is part of the key, so
 * a publish makes every older answer unreachable without anything having to be told about it.
 * Builds of the same key at the same time are shared, so a publish followed by a burst of
 * identical requests builds each answer once.
 */
export class ResponseCache {
  private readonly lru: ByteBudgetLru<Entry>;
  private readonly building = new Map<string, Promise<CachedBody>>();
  private readonly generations = new WeakMap<object, number>();
  private readonly latest = new Map<string, number>();
  private lastGeneration = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lru = new ByteBudgetLru(maxBytes);
  }

  /** The entry for `address` if one is stored and still valid; no waiting, for the hot path. */
  peek(address: CacheAddress): CachedBody | undefined {
    const entry = this.lru.get(this.keyOf(address));
    if (!entry || entry.body.validUntil <= this.now()) return undefined;
    this.hits++;
    return entry.body;
  }

  /** The entry for `address`, built with `build` unless stored, valid, or being built already. */
  async get(address: CacheAddress, build: () => Promise<BodyParts>): Promise<CachedBody> {
    const cached = this.peek(address);
    if (cached) return cached;
    const key = this.keyOf(address);
    const pending = this.building.get(key);
    if (pending) {
      this.hits++;
      return pending;
    }
    this.misses++;
    const generation = this.generationOf(address.scope, address.version);
    const built = build()
      .then(({ before, after, validUntil, tagSource }) => {
        const body = new CachedBody(before, after, validUntil, tagSource);
        const entry: Entry = { body, scope: address.scope, generation };
        body.onResize = (bytes) => this.lru.resize(key, entry, bytes + key.length * 2);
        this.lru.set(key, entry, body.bytes + key.length * 2);
        return body;
      })
      .finally(() => this.building.delete(key));
    this.building.set(key, built);
    return built;
  }

  stats(): ResponseCacheStats {
    return { ...this.lru.stats(), hits: this.hits, misses: this.misses };
  }

  private keyOf(address: CacheAddress): string {
    return `${address.scope}\n${this.generationOf(address.scope, address.version)}\n${address.key}`;
  }

  private generationOf(scope: string, version: object): number {
    let generation = this.generations.get(version);
    if (generation === undefined) {
      generation = ++this.lastGeneration;
      this.generations.set(version, generation);
    }
    const latest = this.latest.get(scope) ?? 0;
    if (generation > latest) {
      this.latest.set(scope, generation);
      // A newer version of the scope: its older answers will never be asked for again.
      if (latest > 0) this.lru.deleteWhere((_, entry) => entry.scope === scope && entry.generation < generation);
    }
    return generation;
  }
}

/** The cache's budget: RESPONSE_CACHE_MAX_BYTES, else 64 MiB; 0 turns caching off (every answer is rebuilt). */
export function responseCacheBudget(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const configured = env.RESPONSE_CACHE_MAX_BYTES?.trim();
  if (!configured) return 64 * 1024 * 1024;
  const bytes = Number(configured);
  if (!Number.isInteger(bytes) || bytes < 0) throw new Error(`RESPONSE_CACHE_MAX_BYTES must be a whole number of bytes, not "${configured}"`);
  return bytes;
}
