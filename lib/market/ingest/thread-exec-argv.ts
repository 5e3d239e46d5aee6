// How a worker thread of the ingesting process (the venue thread, the stream thread) starts when the
// process was started with preloads, as the benchmarks start it from the sources.

const PRELOAD_FLAGS = new Set(["--import", "--require", "-r", "--loader", "--experimental-loader"]);

/**
 * The node options the thread starts with: the process's as they are (undefined: inherited) unless
 * they preload modules. A preload the main thread loads through tsx (bench:freshness's replayed
 * venues) cannot load in a thread before it has registered tsx itself (its boot file), so the
 * thread imports those itself (`preloadsOf`) or not at all; then only the profiler's flags are
 * kept, since a worker refuses V8's flags given explicitly (they are the process's, and apply to
 * the thread anyway).
 */
export function threadExecArgv(execArgv: readonly string[]): string[] | undefined {
  const name = (flag: string) => flag.split("=", 1)[0]!;
  if (!execArgv.some((flag) => PRELOAD_FLAGS.has(name(flag)))) return undefined;
  return execArgv.filter((flag) => /^--(cpu|heap)-prof/.test(flag));
}

/**
 * The ES modules the process preloads with `--import` (either spelling), tsx itself left out: what a
 * thread started from the sources imports once it has registered tsx, so that a module the
 * process's preload changed (bench:freshness replays every venue's REST answers) is changed in the
 * thread too. `--require` preloads are not carried.
 */
export function preloadsOf(execArgv: readonly string[]): string[] {
  const modules: string[] = [];
  execArgv.forEach((flag, i) => {
    const specifier = flag === "--import" ? execArgv[i + 1] : flag.startsWith("--import=") ? flag.slice("--import=".length) : undefined;
    if (specifier && specifier !== "tsx" && !specifier.startsWith("tsx/")) modules.push(specifier);
  });
  return modules;
}
