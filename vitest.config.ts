import { defineConfig } from "vitest/config";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";

const alias = { "@": fileURLToPath(new URL("./", import.meta.url)) };

// Unit tests sit beside the module they test; the venue connectors' contract test sits with its
// table of venue expectations in tests/venues. Integration tests need real servers: the ones in
// tests/integration get their own freshly migrated database per file, and `*.redis.test.ts`
// files beside their module start their own redis-server. Shared test support (fixtures, the
// redis-server starter, freePort) lives in tests/support, which holds no tests of its own.
export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, which leaves a
    // core idle while a file waits on its servers, subprocesses and timers. At least two workers
    // roughly halve the integration suite's wall time there (docs/operations.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "tests/venues/**/*.test.ts", "tests/fixtures/**/*.test.ts"],
          setupFiles: ["tests/support/quiet-logs.ts"],
          exclude: ["**/*.redis.test.ts", "**/node_modules/**"],
          environment: "node",
          // The timeout catches a hang, not slowness: a few tests replay the whole sample, which on a
          // loaded 2-core machine takes longer than vitest's 5 s default.
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "lib/**/*.redis.test.ts"],
          setupFiles: ["tests/support/quiet-logs.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
