/**
 * A key's limit each process enforces on its own while the shared store is away: its share of
 * `limit` among the `liveServers` serving the API, rounded down so that the shares together never
 * exceed the limit, and at least 1 so that a key is never shut out. A count that is not a whole
 * number of servers (unknown, 0, NaN) counts as this process alone.
 */
export function fallbackLimit(limit: number, liveServers: number): number {
  const servers = Number.isFinite(liveServers) && liveServers >= 1 ? Math.floor(liveServers) : 1;
  return Math.max(1, Math.floor(limit / servers));
}
