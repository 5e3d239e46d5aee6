import { AppError } from "@/lib/errors";
import { HistoryMarketGone, type HistoryIo, type VenueHistoryReader } from "../history-types";
import type { HistoryBudget } from "./request-budget";

export interface HttpHistoryIoOptions {
  /** The venue's request budget: every request waits for its turn. */
  budget: HistoryBudget;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The reader's test for the venue's unknown-symbol answer. */
  marketGone?: VenueHistoryReader["marketGone"];
}

/**
 * The network for a history reader: each request waits for the venue's budget, and the venue's
 * refusals become the errors the backfill tells apart. 404 and 410 are NOT_FOUND (the market is
 * gone: delisted, not retried), and so is an answer of any status the reader's `marketGone` names
 * the venue's unknown-symbol answer (BingX's `code` 109425 in a 200), thrown as HistoryMarketGone.
 * 429 and 418 (Binance's ban) are RATE_LIMITED, anything else VENUE_UNAVAILABLE; both are retried
 * later with backoff.
 */
export function httpHistoryIo(options: HttpHistoryIoOptions): HistoryIo {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const send = options.fetch ?? fetch;
  const request = async (url: string, init: RequestInit): Promise<unknown> => {
    await options.budget.take();
    const response = await send(url, { ...init, signal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
      throw new AppError("VENUE_UNAVAILABLE", `${new URL(url).host}: ${error instanceof Error ? error.message : String(error)}`);
    });
    const where = `${new URL(url).host} answered ${response.status}`;
    const text = await response.text();
    const body = parsed(text);
    const gone = body === undefined ? null : (options.marketGone?.(body, response.status) ?? null);
    if (gone !== null) throw new HistoryMarketGone(`${where}: ${gone}`);
    if (response.status === 404 || response.status === 410) throw new AppError("NOT_FOUND", where);
    if (response.status === 429 || response.status === 418) {
      const retryAfter = Number(response.headers.get("retry-after"));
      throw new AppError("RATE_LIMITED", where, Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {});
    }
    if (!response.ok) throw new AppError("VENUE_UNAVAILABLE", where);
    if (body === undefined) throw new AppError("VENUE_UNAVAILABLE", `${where} with a body that is not JSON`);
    return body;
  };
  return {
    getJson: (url) => request(url, { method: "GET" }),
    postJson: (url, body) => request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
