import type { KeyView } from "./account-keys";

/** Keys that expire within this many days are called out on the API Keys page. */
export const EXPIRY_WARNING_DAYS = 7;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The active keys that expire within EXPIRY_WARNING_DAYS of `now`, soonest first: the ones whose
 * clients stop working soon unless their owner rolls or replaces them. A key already rolled is
 * left out: its replacement exists, and the row says when it goes.
 */
export function keysExpiringSoon(keys: readonly KeyView[], now: number): KeyView[] {
  return keys
    .filter((key) => key.status === "active" && !key.revoked_at && key.expires_at !== null)
    .filter((key) => {
      const left = Date.parse(key.expires_at!) - now;
      return left > 0 && left <= EXPIRY_WARNING_DAYS * DAY_MS;
    })
    .sort((a, b) => Date.parse(a.expires_at!) - Date.parse(b.expires_at!));
}

/** "in 3 days", "in 5 hours", "in less than an hour": how soon, rounded down, as the warning says it. */
export function timeUntil(expiresAt: string, now: number): string {
  const left = Date.parse(expiresAt) - now;
  if (left >= DAY_MS) {
    const days = Math.floor(left / DAY_MS);
    return `in ${days} ${days === 1 ? "day" : "days"}`;
  }
  if (left >= HOUR_MS) {
    const hours = Math.floor(left / HOUR_MS);
    return `in ${hours} ${hours === 1 ? "hour" : "hours"}`;
  }
  return "in less than an hour";
}
