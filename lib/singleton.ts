/**
 * One instance per process, shared by every copy of a module.
 *
 * `server.ts` (run by tsx) and Next's server bundle each load their own copy of `lib/`, and
 * `next dev` reloads modules on every edit. State that must exist once per process (the embedded
 * database, caches, the limiter) is therefore keyed on `globalThis` rather than module scope.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`fods.${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  let value = store[key];
  if (value === undefined) {
    value = create();
    store[key] = value;
  }
  return value;
}

/** Forgets a singleton, so the next `processSingleton` call creates it again. */
export function dropProcessSingleton(name: string): void {
  delete (globalThis as unknown as Record<symbol, unknown>)[Symbol.for(`fods.${name}`)];
}
