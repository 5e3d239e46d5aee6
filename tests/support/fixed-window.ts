/**
 * Waits, when less than `roomMs` is left of the clock's current fixed window of `windowMs` (a
 * rate limit's minute, the sign-in throttle's 15 minutes), for the next one to begin: requests a
 * test must see counted in one window then cannot straddle two, which would legitimately admit more.
 */
export async function withRoomInWindow(windowMs: number, roomMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < roomMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
