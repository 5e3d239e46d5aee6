// Every import rule of the project, checked by `npm run lint` (scripts/lint/check-dependencies.mjs
// runs dependency-cruiser with this file, then checks the folder graph): no file cycles; no import
// from a lower layer into a higher one by the folder → layer table in scripts/lint/layers.cjs; and
// the boundaries that are not about layers (route modules, test code, Next.js in lib/). Dynamic
// import() and type-only imports are checked like static ones.
const { LAYERS, unitPattern } = require("./scripts/lint/layers.cjs");

const TEST_FILE = String.raw`\.(test|spec)\.[cm]?[jt]sx?$`;
const either = (units) => units.map(unitPattern).join("|");
// Benchmarks, fault and soak runs and the Python client's test runner reuse the shared test support
// and fixtures.
const TOOLS_ON_TEST_SUPPORT = String.raw`^scripts/(bench|faults|soak)/|^scripts/test-python-client\.ts$|^scripts/build-sample-market\.ts$`;
// The session/next-auth adapter of the web app: what wraps next-auth so that nothing else under lib/
// has to (options.ts builds the CredentialsProvider, session.ts reads the session and answers pages
// with next/navigation, next-auth.d.ts adds the user's id and role to next-auth's Session).
const NEXT_AUTH_ADAPTER = String.raw`^lib/auth/(options\.ts|session\.ts|next-auth\.d\.ts)$`;

const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name.replace(/ /g, "-")}`,
  severity: "error",
  comment: `${layer.name} (${layer.why}) must not import a higher layer (scripts/lint/layers.cjs).`,
  from: { path: either(layer.units), pathNot: TEST_FILE },
  to: { path: either(LAYERS.slice(index + 1).flatMap((higher) => higher.units)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A file must not reach itself through its imports (type-only imports count: they tie the files' shapes together).",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: "api-layer",
      severity: "error",
      comment: "Only lib/api may import lib/api: domain code under lib/ must not depend on the HTTP layer (move the shared piece to lib/ instead).",
      from: { path: "^lib/(?!api/)" },
      to: { path: "^lib/api/" },
    },
    {
      name: "routes-from-app-only",
      severity: "error",
      comment: "lib/api/routes/* are only imported by lib/api/app.ts: call the domain operation (lib/) or go through the /v1 app.",
      from: { pathNot: "^lib/api/(app\\.ts$|routes/)" },
      to: { path: "^lib/api/routes/" },
    },
    {
      name: "no-test-code",
      severity: "error",
      comment: "Runtime code must not import tests/ or e2e/ (only test files, tests/ and e2e/ may).",
      from: { pathNot: [TEST_FILE, "^(tests|e2e)/", TOOLS_ON_TEST_SUPPORT] },
      to: { path: "^(tests|e2e)/" },
    },
    {
      name: "test-support-only",
      severity: "error",
      comment: "Only tests/support/ and tests/fixtures/ may be imported here, not other test code (tests/, e2e/).",
      from: { path: TOOLS_ON_TEST_SUPPORT, pathNot: TEST_FILE },
      to: { path: "^(tests/(?!(support|fixtures)/)|e2e/)" },
    },
    {
      name: "no-web-framework-in-lib",
      severity: "error",
      comment: "Domain code under lib/ must not import next, next-auth or the app/ tree (only the next-auth adapter in lib/auth may import next-auth).",
      from: { path: "^lib/", pathNot: NEXT_AUTH_ADAPTER },
      to: { path: ["(^|/)node_modules/next(-auth)?/", "^app/"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^\\.next/|^lib/db/generated/|^clients/typescript/dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
