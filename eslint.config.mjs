import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const TESTS = ["**/*.test.ts", "**/*.test.tsx"];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".data/**", "node_modules/**", "lib/db/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "e2e-artifacts/**"]),
  // The hand-written TypeScript client is linted; its generated files (`npm run clients:generate`,
  // scripts/clients/client-files.ts) and build output are not.
  globalIgnores(["clients/typescript/src/openapi-types.ts", "clients/typescript/src/operations.ts", "clients/typescript/dist/**"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // CommonJS files (.dependency-cruiser.cjs and what it loads) import with require().
  { files: ["**/*.cjs"], rules: { "@typescript-eslint/no-require-imports": "off" } },
  // Import boundaries, layers and cycles are checked by dependency-cruiser (.dependency-cruiser.cjs),
  // the second half of `npm run lint`.
  // Runtime code logs through lib/observability/logger.ts (JSON lines with time, level, request id);
  // the command-line tools under scripts/, which talk to a terminal, print as they please.
  { files: ["lib/**", "app/**", "server.ts", "proxy.ts", "scripts/worker.ts"], ignores: TESTS, rules: { "no-console": "error" } },
]);
