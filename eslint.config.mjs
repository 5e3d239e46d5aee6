import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Import boundaries, enforced with the core `no-restricted-imports` rule. Each group below is one
// kind of forbidden edge; the blocks at the end give every part of the tree the groups it must
// respect. Import specifiers are matched as written, so relative paths that climb into a forbidden
// folder are matched by shape (`../api/…`, `./routes/…`); dynamic `import()` is not checked.
const boundary = {
  // (a) The /v1 HTTP layer sits on top of the domain: nothing under lib/ outside lib/api reaches into it.
  apiLayer: {
    regex: String.raw`^(@/lib/api|\./api|(\.\./)+(lib/)?api)(/|$)`,
    message: "Only lib/api may import lib/api: domain code under lib/ must not depend on the HTTP layer (move the shared piece to lib/ instead).",
  },
  // (b) Route modules are registered by lib/api/app.ts alone; everyone else goes through the app or the domain.
  routes: {
    regex: String.raw`^(@/lib/api/|(\./|(\.\./)+)((lib/)?api/)?)routes(/|$)`,
    message: "lib/api/routes/* are only imported by lib/api/app.ts: call the domain operation (lib/) or go through the /v1 app.",
  },
  // (c) Runtime code never loads test code.
  testCode: {
    regex: String.raw`^(@/|\./|(\.\./)+)(tests|e2e)(/|$)`,
    message: "Runtime code must not import tests/ or e2e/ (only *.test.ts files, tests/ and e2e/ may).",
  },
  // (c) Benchmarks, the sample's build and the Python client's test runner may reuse the shared test
  // support and the venue recordings, nothing else of it.
  testCodeButSupport: {
    regex: String.raw`^(@/|\./|(\.\./)+)(tests(?!/(support|fixtures)(/|$))|e2e)(/|$)`,
    message: "Only tests/support/ and tests/fixtures/ may be imported here, not other test code (tests/, e2e/).",
  },
  // (d) Domain code is framework-free: Next.js, next-auth and the app/ tree stay outside lib/.
  webFramework: [
    {
      regex: String.raw`^next(-auth)?(/|$)`,
      message: "Domain code under lib/ must not import next or next-auth (only the next-auth wrappers listed in eslint.config.mjs may).",
    },
    {
      regex: String.raw`^(@/|(\.\./)+)app(/|$)`,
      message: "Domain code under lib/ must not import the Next.js app/ tree.",
    },
  ],
};

// (d)'s exceptions: the session/next-auth adapter of the web app, which is what wraps next-auth
// so that nothing else under lib/ has to.
//   lib/auth/options.ts     builds NextAuthOptions with next-auth's CredentialsProvider.
//   lib/auth/session.ts     reads the session with getServerSession and answers pages with
//                           next/navigation's notFound/redirect.
//   lib/auth/next-auth.d.ts augments next-auth's Session type with the user's id and role.
const nextAuthAdapter = ["lib/auth/options.ts", "lib/auth/session.ts", "lib/auth/next-auth.d.ts"];

const restrict = (...groups) => ({ "no-restricted-imports": ["error", { patterns: groups.flat() }] });
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
  // Import boundaries. For one rule a later block replaces an earlier block's options, so each block
  // lists every group its files keep, and the more specific blocks come later.
  { files: ["**/*.{ts,tsx,mts,cts,js,mjs,jsx}"], rules: restrict(boundary.routes) },
  { files: ["app/**", "server.ts", "scripts/**", "clients/**"], rules: restrict(boundary.routes, boundary.testCode) },
  { files: ["scripts/bench/**", "scripts/faults/**", "scripts/soak/**", "scripts/test-python-client.ts", "scripts/build-sample-market.ts"], rules: restrict(boundary.routes, boundary.testCodeButSupport) },
  { files: ["lib/**"], rules: restrict(boundary.apiLayer, boundary.routes, boundary.testCode, boundary.webFramework) },
  { files: ["lib/api/**"], rules: restrict(boundary.routes, boundary.testCode, boundary.webFramework) },
  { files: ["lib/api/app.ts"], rules: restrict(boundary.testCode, boundary.webFramework) },
  { files: nextAuthAdapter, rules: restrict(boundary.apiLayer, boundary.routes, boundary.testCode) },
  // Test files may import test code; the other boundaries of their folder still hold.
  { files: TESTS, rules: restrict(boundary.routes) },
  { files: TESTS.map((glob) => `lib/${glob}`), rules: restrict(boundary.apiLayer, boundary.routes, boundary.webFramework) },
  { files: TESTS.map((glob) => `lib/api/${glob}`), rules: restrict(boundary.routes, boundary.webFramework) },
  // Runtime code logs through lib/observability/logger.ts (JSON lines with time, level, request id);
  // the command-line tools under scripts/, which talk to a terminal, print as they please.
  { files: ["lib/**", "app/**", "server.ts", "proxy.ts", "scripts/worker.ts"], ignores: TESTS, rules: { "no-console": "error" } },
]);
