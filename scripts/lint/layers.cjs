// The folder → layer table: every unit of the tree, lowest layer first. A unit may import its own
// layer and the layers below it, never one above. .dependency-cruiser.cjs turns the table into
// rules per file; scripts/lint/check-dependencies.mjs also checks that every unit with files has a
// row and that no two units import each other. docs/ARCHITECTURE.md shows this table as
// scripts/lint/layer-table.mjs writes it; a test holds the two the same.
//
// A unit is a folder of lib/ (a part of lib/market for the files below lib/market/<part>/, the loose
// files of lib/market together), a loose file of lib/ on its own, a folder of tests/, or one of app,
// scripts, e2e, clients and the root files whole. A file may be named as a unit of its own where it
// sits below the rest of its folder (see unitOf).
//
// Test files (*.test.ts) are outside the layers: nothing imports them, and they may reach
// tests/support; the other rules of .dependency-cruiser.cjs say what they may import.

/** @type {{ name: string, why: string, units: string[] }[]} */
const LAYERS = [
  {
    name: "foundation",
    why: "imported by everything: errors, validation, configuration, the plans table, the logger and metrics",
    units: [
      "lib/errors.ts", "lib/validation.ts", "lib/query-params.ts", "lib/pagination.ts", "lib/round.ts", "lib/singleton.ts",
      "lib/format-time.ts", "lib/safe-redirect.ts", "lib/build-info.ts", "lib/plans.ts", "lib/time-slices.ts", "lib/config",
      "lib/observability",
      // The tier and permission vocabulary (zod only) that the plans table reads; the rest of lib/keys sits higher.
      "lib/keys/permissions.ts",
      // The generated clients import nothing of the project.
      "clients",
    ],
  },
  { name: "market model", why: "pure market domain: types, APR, funding intervals, price spread", units: ["lib/market/model"] },
  {
    name: "infrastructure",
    why: "database, processes, limiter stores, the response cache, mail, jobs, client archives",
    units: [
      "lib/db", "lib/process", "lib/ratelimit", "lib/response-cache", "lib/mail", "lib/jobs", "lib/clients",
      // The settlement table's month partitions (lib/db only): every writer of settlements makes them, live ingestion included.
      "lib/history/store/settlement-partitions.ts",
    ],
  },
  {
    name: "accounts",
    why: "who acts and what they may do: the audit trail, keys, accounts and sessions, the actor, usage, billing",
    units: ["lib/audit.ts", "lib/keys", "lib/accounts", "lib/actor.ts", "lib/usage", "lib/security", "lib/admin", "lib/billing"],
  },
  { name: "venues", why: "connectors, fee tables, the venue registry", units: ["lib/market/venues"] },
  {
    name: "market",
    why: "order books, the published set and the Market port, persistence figures, spot legs and carry",
    units: ["lib/market", "lib/market/books", "lib/market/opportunities", "lib/market/persistence", "lib/market/carry"],
  },
  { name: "sandbox and sample", why: "the generated test market, the offline sample", units: ["lib/market/sandbox", "lib/market/sample"] },
  {
    name: "ingest",
    why: "rounds, the venue thread, the stream thread, storing, retention, the live Market's reads; events reach it through its RoundEvents port",
    units: ["lib/market/ingest"],
  },
  {
    name: "history",
    why: "funding history: each venue's history reader, the settlement store, backfill jobs, coverage and export",
    units: ["lib/history"],
  },
  { name: "events", why: "the change-event log, its feed, stream filters, sandbox ticks", units: ["lib/events"] },
  { name: "webhooks", why: "endpoints, dispatch, signed delivery", units: ["lib/webhooks"] },
  { name: "alerts", why: "alert rules and their evaluation, which queue webhook deliveries", units: ["lib/alerts"] },
  { name: "services", why: "the process's one service container", units: ["lib/app-services.ts"] },
  {
    name: "domain cores",
    why: "operations taking (services, actor, input): account fees, quotes, simulations, positions, the screener, health",
    units: ["lib/fees", "lib/quote", "lib/sim", "lib/portfolio", "lib/screener", "lib/health.ts"],
  },
  { name: "web edge", why: "next-auth options and the page session helpers", units: ["lib/auth"] },
  { name: "http", why: "the /v1 API: the Hono app, its routes, the OpenAPI document", units: ["lib/api"] },
  { name: "entry", why: "the listener and the Next.js pages and JSON routes", units: ["server.ts", "proxy.ts", "app"] },
  { name: "test support", why: "shared test helpers and fixtures (benchmarks reuse them)", units: ["tests/support", "tests/fixtures"] },
  { name: "scripts", why: "operations, generators, benchmarks, soak, faults, the worker", units: ["scripts"] },
  { name: "tests", why: "integration and browser tests", units: ["tests/integration", "tests/venues", "e2e"] },
  {
    name: "tool configuration",
    why: "configuration files of the build and test tools",
    units: ["eslint.config.mjs", "next.config.mjs", "playwright.config.ts", "prisma.config.ts", "vitest.config.ts"],
  },
];

const isFileUnit = (unit) => /\.[cm]?[jt]sx?$/.test(unit);
/** Files named as units of their own inside a folder unit (lib/keys/permissions.ts). */
const NESTED_FILE_UNITS = LAYERS.flatMap((layer) => layer.units).filter((unit) => isFileUnit(unit) && unit.split("/").length > 2);

/** The unit a project file belongs to (see the table's comment). */
function unitOf(file) {
  if (NESTED_FILE_UNITS.includes(file)) return file;
  const parts = file.split("/");
  if (parts.length === 1) return file;
  const [top, second] = parts;
  if (top === "lib") {
    if (parts.length === 2) return file;
    if (second === "market" && parts.length > 3) return `lib/market/${parts[2]}`;
    return `lib/${second}`;
  }
  if (top === "tests" && parts.length > 2) return `tests/${second}`;
  return top;
}

/** unit → its layer's index. */
const LAYER_OF = Object.fromEntries(LAYERS.flatMap((layer, index) => layer.units.map((unit) => [unit, index])));

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A regular expression (source) matching the files of a unit. */
function unitPattern(unit) {
  if (isFileUnit(unit)) return `^${escape(unit)}$`;
  const nested = NESTED_FILE_UNITS.filter((file) => file.startsWith(`${unit}/`)).map((file) => escape(file.slice(unit.length + 1)) + "$");
  const notNested = nested.length ? `(?!${nested.join("|")})` : "";
  // lib/market's own unit is its loose files; its folders are units of their own.
  if (unit === "lib/market") return `^lib/market/${notNested}[^/]+$`;
  return `^${escape(unit)}/${notNested}`;
}

module.exports = { LAYERS, LAYER_OF, unitOf, unitPattern };
