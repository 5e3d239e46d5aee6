/** The values the named variables have in process.env now, for restoreEnv. */
export function saveEnv(...names: string[]): Record<string, string | undefined> {
  return Object.fromEntries(names.map((name) => [name, process.env[name]]));
}

/** Puts process.env's variables back as saveEnv read them: a variable that was unset is deleted. */
export function restoreEnv(saved: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
