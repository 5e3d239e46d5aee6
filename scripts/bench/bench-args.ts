// What the benchmark scripts share: reading `--name=value` options and taking percentiles.

/** `--name=<integer of at least min>` from the command line (a positive one unless `min` says), else `fallback`. */
export function intOption(name: string, fallback: number, min = 1): number {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = arg ? Number(arg.slice(name.length + 3)) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(min === 1 ? `--${name} must be a positive integer` : `--${name} must be an integer of at least ${min}`);
  return value;
}

/** The p-th percentile (nearest rank) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * The node flags package.json's `script` gives before its entry (`node --flag … <entry>` or
 * `node --flag … --import tsx <entry>`): a benchmark runs each part in a process set up as the
 * service's process for it is.
 */
export function nodeFlagsOf(scripts: Readonly<Record<string, string>>, script: string): string[] {
  const words = (scripts[script] ?? "").split(" ");
  // `npm start` builds first: its node is the one after the last `&&`.
  const node = words.lastIndexOf("node");
  if (node < 0) throw new Error(`package.json's "${script}" script runs no node`);
  return words.slice(node + 1).filter((word) => word.startsWith("--") && word !== "--import");
}
