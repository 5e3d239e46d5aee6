import { hash, verify } from "@node-rs/argon2";

// @node-rs/argon2 defaults to Argon2id (m=19 MiB, t=2, p=1), OWASP's recommended minimum.
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check when the e-mail is unknown, so response time does not
 * tell an attacker which e-mail addresses have accounts.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hash("not-a-real-password-for-timing");
  await verifyPassword(await dummyHash, password);
  return false;
}
