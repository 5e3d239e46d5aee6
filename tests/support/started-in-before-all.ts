/**
 * A stand-in for what a beforeAll hook starts: reading a property reads `current()`'s, and fails
 * naming `what` when read before the hook ran. Lets a `...ForFile()` helper return at once.
 */
export function startedInBeforeAll<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, property) {
      const started = current();
      if (!started) throw new Error(`${what} starts in beforeAll: read it in a hook or a test`);
      return Reflect.get(started, property);
    },
  });
}
