import { cryptoRandomSource, randomBase62, type RandomSource } from "@/lib/keys/base62";
import { checksumFor, displayPrefix, RANDOM_LENGTH } from "@/lib/keys/format";
import { hashApiKey } from "@/lib/keys/hash";
import { KEY_PREFIXES, type KeyMode } from "@/lib/keys/mode";

export type GeneratedApiKey = {
  /** The full key: returned here once, to be shown to the user once, and never stored. */
  key: string;
  hash: string;
  prefix: string;
  mode: KeyMode;
};

export function generateApiKey(mode: KeyMode, random: RandomSource = cryptoRandomSource): GeneratedApiKey {
  const body = randomBase62(RANDOM_LENGTH, random);
  const key = `${KEY_PREFIXES[mode]}${body}${checksumFor(mode, body)}`;
  return { key, hash: hashApiKey(key), prefix: displayPrefix(key), mode };
}

export class ApiKeyCollisionError extends Error {
  constructor(attempts: number) {
    super(`could not generate an unused API key in ${attempts} attempts`);
    this.name = "ApiKeyCollisionError";
  }
}

/**
 * A collision of 190 random bits "never" happens, but the hash column is unique, so a broken
 * random source must surface as an error here rather than as someone else's key. The insert
 * itself still has to rely on the unique constraint: `isTaken` cannot close the race.
 */
export async function generateUniqueApiKey(
  mode: KeyMode,
  isTaken: (hash: string) => Promise<boolean>,
  maxAttempts = 5,
  random: RandomSource = cryptoRandomSource,
): Promise<GeneratedApiKey> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const candidate = generateApiKey(mode, random);
    if (!(await isTaken(candidate.hash))) return candidate;
  }
  throw new ApiKeyCollisionError(maxAttempts);
}
