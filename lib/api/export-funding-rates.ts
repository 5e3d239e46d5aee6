import type { Actor } from "@/lib/actor";
import { actorFromKey } from "@/lib/actor";
import type { AppServices } from "@/lib/app-services";
import { csvWriter } from "@/lib/history/export/csv-writer";
import { EXPORT_FORMATS, type ExportFormat } from "@/lib/history/export/export-format";
import { assertExportIncluded, assertWithinRowCap, exportsPerDayExceeded } from "@/lib/history/export/export-limits";
import type { ExportSelection } from "@/lib/history/export/export-request";
import { exportStream } from "@/lib/history/export/export-stream";
import { parquetWriter } from "@/lib/history/export/parquet-writer";
import { countSettlements, readSettlementBatches } from "@/lib/history/export/read-settlement-batches";
import { sandboxBatches, sandboxSettlements } from "@/lib/history/export/sandbox-batches";
import { assertWithinHistory } from "@/lib/history/history-depth";
import { parseQuery } from "@/lib/query-params";
import { EXPORT_DEFAULT_DAYS, EXPORT_DEFINITION, type ExportQuery } from "./export-definition";
import type { ApiContext } from "./route";
import { assertAllowed } from "./route-rule";
import { resolveRange } from "./time-range";
import { authenticate } from "./with-api-key";

export const EXPORT_PATH = EXPORT_DEFINITION.path;

const DAY_MS = 86_400_000;

/** GET /v1/exports/funding-rates under an API key: authentication and the rate limit as every /v1 request, then the export. */
export async function exportFundingRatesWithKey(c: ApiContext, services: AppServices): Promise<Response> {
  const key = await authenticate(c, services);
  const actor = actorFromKey(key);
  assertAllowed(EXPORT_DEFINITION, actor);
  const query = parseQuery(new URL(c.req.url), EXPORT_DEFINITION.query);
  return exportResponse({ services, actor, query, head: c.req.method === "HEAD", headers: c.get("rateLimitHeaders") });
}

interface ExportRequest {
  services: AppServices;
  actor: Pick<Actor, "userId" | "mode" | "tier">;
  query: ExportQuery;
  /** A HEAD request: every check, and the headers, without the body or counting an export. */
  head?: boolean;
  headers?: Readonly<Record<string, string>>;
  now?: Date;
}

/**
 * An export for `actor`, once the credential and the permission are checked (by /v1 or the web
 * app's session): the plan's limits in the order a caller can act on them (exports included, the
 * range's length, the history's depth, the row cap, then the day's count, so a refused request
 * does not spend one), then the body streamed from the actor mode's settlements.
 */
export async function exportResponse({ services, actor, query, head = false, headers = {}, now = new Date() }: ExportRequest): Promise<Response> {
  const plan = services.plans(actor.tier);
  assertExportIncluded(plan);
  const range = resolveRange(query, { defaultDays: Math.min(EXPORT_DEFAULT_DAYS, plan.exportRangeDays), maxDays: plan.exportRangeDays }, now);
  assertWithinHistory(range.from, plan, now);
  const selection: ExportSelection = { exchanges: query.exchanges ?? null, symbols: query.symbols ?? null, ...range };
  // Test keys export the sandbox's generated history, never live data.
  const sandbox = actor.mode === "test" ? sandboxSettlements(selection, now) : null;
  const rows = sandbox ? sandbox.length : await countSettlements(await services.db(), selection);
  assertWithinRowCap(rows, plan);
  const format: ExportFormat = query.format;
  const responseHeaders = {
    ...headers,
    "Content-Type": EXPORT_FORMATS[format].contentType,
    "Content-Disposition": `attachment; filename="${exportFileName(selection, format)}"`,
    "Cache-Control": "no-store",
    "X-Export-Rows": String(rows),
    // Proxies such as nginx must pass the file on as it is written rather than buffer it.
    "X-Accel-Buffering": "no",
  };
  if (head) return new Response(null, { status: 200, headers: responseHeaders });
  const counted = await services.limiter.limit(`export:${actor.userId}`, plan.exportsPerDay, DAY_MS);
  if (!counted.success) throw exportsPerDayExceeded(plan, Math.max(1, Math.ceil((counted.reset - Date.now()) / 1000)));
  const batches = sandbox ? sandboxBatches(sandbox) : readSettlementBatches(await services.db(), selection);
  const body = exportStream(batches, format === "csv" ? csvWriter() : parquetWriter(), { account: actor.userId, rows });
  return new Response(body, { status: 200, headers: responseHeaders });
}

/** funding-rates_binance-okx_BTC-ETH_20261101T0000Z_20261108T0000Z.csv: what was asked, readable in a downloads folder. */
export function exportFileName(selection: ExportSelection, format: ExportFormat): string {
  const list = (items: readonly string[] | null, all: string) => (items === null ? all : items.length > 5 ? `${items.length}-${all}` : items.join("-"));
  const stamp = (date: Date) => date.toISOString().slice(0, 16).replaceAll("-", "").replace(":", "") + "Z";
  const parts = ["funding-rates", list(selection.exchanges, "exchanges"), list(selection.symbols, "assets"), stamp(selection.from), stamp(selection.to)];
  return `${parts.join("_")}.${EXPORT_FORMATS[format].extension}`;
}
