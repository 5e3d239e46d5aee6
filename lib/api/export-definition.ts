import { z } from "zod";
import { EXPORT_COLUMNS } from "@/lib/history/export/export-format";
import { MAX_EXPORT_SYMBOLS as MAX_SYMBOLS } from "@/lib/history/export/export-href";
import { exchangeListParam } from "@/lib/market/model/market-params";
import { perPlan, planNames, plansWith } from "@/lib/plans";
import { dateOrDateTimeText } from "@/lib/validation";

/** Base assets separated by commas (`BTC,ETH`), case-insensitive, answered upper-case, sorted, without repeats. */
const symbolList = z
  .string()
  .regex(new RegExp(`^[A-Za-z0-9]{1,20}(,[A-Za-z0-9]{1,20}){0,${MAX_SYMBOLS - 1}}$`), `Must be up to ${MAX_SYMBOLS} base assets separated by commas, e.g. BTC,ETH`)
  .meta({ examples: ["BTC,ETH"] })
  .transform((text) => [...new Set(text.toUpperCase().split(","))].sort());

const instant = dateOrDateTimeText("Must be an ISO 8601 date or date-time, e.g. 2026-11-21T00:00:00Z").transform((text) => new Date(text));

export const EXPORT_DEFAULT_DAYS = 7;

const exportPlans = () => planNames(plansWith("export"));

/**
 * What GET /v1/exports/funding-rates is, for its handler (lib/api/export-funding-rates.ts), the web
 * app's download route and the OpenAPI document. Like GET /v1/stream it is outside the route table:
 * its answer is a file (CSV or Parquet) written as it is read, not an envelope, which the generated
 * clients and the contract tests, reading every route's answer as JSON, cannot take.
 */
export const EXPORT_DEFINITION = {
  method: "GET",
  path: "/v1/exports/funding-rates",
  operationId: "exportFundingRates",
  summary: "Download funding settlements as CSV or Parquet",
  tag: "Market data",
  permission: "opportunities:read",
  query: z.strictObject({
    exchanges: exchangeListParam().optional().describe("Exchanges separated by commas; default: every exchange."),
    symbols: symbolList.optional().describe(`Base assets separated by commas (at most ${MAX_SYMBOLS}), case-insensitive; default: every asset.`),
    from: instant
      .optional()
      .describe(`Start of the range, inclusive; default: ${EXPORT_DEFAULT_DAYS} days before \`to\`. Not earlier than the plan's history reaches.`),
    to: instant.optional().describe("End of the range, inclusive; default: now."),
    format: z.enum(["csv", "parquet"]).default("csv").describe("`csv` (RFC 4180, with a header) or `parquet`."),
  }),
  description:
    "Every funding settlement of the chosen exchanges and assets over a range, as one file, written as it is read (a year of " +
    "every market does not wait to be assembled): sorted by exchange, market and time. The columns are the fields of " +
    `GET /v1/funding-rates: ${EXPORT_COLUMNS.map((c) => `\`${c}\``).join(", ")}.\n\n` +
    "**CSV** (`format=csv`, the default): RFC 4180, a header record, CRLF line ends; times ISO 8601 UTC, rates as decimals, " +
    "an unknown interval or APR as an empty field.\n\n" +
    "**Parquet** (`format=parquet`): one row group per few thousand rows, Snappy-compressed; `time` a UTC timestamp in " +
    "milliseconds, the rates doubles, `funding_interval_hours` and `apr` nullable.\n\n" +
    "The answer carries `Content-Disposition: attachment` with a file name and `X-Export-Rows`, the number of settlements it " +
    "holds. A failure after the answer has started ends the connection without completing the body: a file that does not " +
    "end properly (no closing chunk; for Parquet, no footer) is incomplete.\n\n" +
    `**Limits.** Exports are included in the ${exportPlans()} plans. One export may span at most ${perPlan("export", (p) => `${p.exportRangeDays} days`)} ` +
    "(longer: 400 naming the field) and hold at most " +
    `${perPlan("export", (p) => `${p.exportMaxRows.toLocaleString("en-US")} settlements`)} (more: 403); ` +
    `\`from\` reaches back at most ${perPlan("export", (p) => `${p.historyDays} days`)} (earlier: 403 naming the plan's depth). ` +
    `An account makes at most ${perPlan("export", (p) => p.exportsPerDay)} exports per UTC day (one more: 429 with \`Retry-After\`); ` +
    "each export is also one request against the key's rate limit.",
} as const;

export type ExportQuery = z.infer<typeof EXPORT_DEFINITION.query>;
