import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const alias = { "@": fileURLToPath(new URL("./", import.meta.url)) };

// Unit tests sit beside the module they test. Integration tests need real servers: the ones in
// tests/integration get their own freshly migrated database per file, and `*.redis.test.ts`
// files beside their module start their own redis-server. Shared test support (fixtures, the
// redis-server starter, freePort) lives in tests/support, which holds no tests of its own.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"],
          setupFiles: ["tests/support/quiet-logs.ts"],
          exclude: ["**/*.redis.test.ts", "**/node_modules/**"],
          environment: "node",
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
