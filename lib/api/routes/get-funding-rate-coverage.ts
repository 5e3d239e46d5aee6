import { z } from "zod";
import { settlementCoverageAnswer, settlementCoverageSchema } from "@/lib/history/coverage/coverage-schema";
import { settlementCoverage } from "@/lib/history/coverage/settlement-coverage";
import { historyReader } from "@/lib/history/venues/history-readers";
import { baseAssetParam, exchangeParam } from "@/lib/market/model/market-params";
import { marketMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

/** Coverage moves with each settlement stored (hourly at most) and with a backfill's progress: a minute's reuse hides little. */
const REUSE_MS = 60_000;

// GET /v1/funding-rates/coverage — what funding history the service holds for one asset on one venue.
export const getFundingRateCoverageRoute = defineRoute({
  method: "GET",
  path: "/v1/funding-rates/coverage",
  operationId: "getFundingRateCoverage",
  summary: "Funding history coverage of one asset on one exchange",
  description:
    "Per market of the asset on the exchange: the first and last stored settlement and how many there are, per source " +
    "(`backfill`: read back from the venue's own history, `observed`: seen by the live rounds) its first and last, the known " +
    "gaps (consecutive settlements further apart than the interval allows) and, in `venue_history`, how much history the " +
    "venue itself serves. A backtest knows from it which ranges it stands on. " +
    `The answer may be reused for up to ${REUSE_MS / 1000} s.`,
  tag: "Market data",
  permission: "opportunities:read",
  query: z.strictObject({
    exchange: exchangeParam().describe("The exchange."),
    symbol: baseAssetParam().describe("Base asset, e.g. BTC (case-insensitive)."),
  }),
  data: settlementCoverageSchema,
  meta: marketMetaSchema,
  cached: true,
  example: { query: { exchange: "binance", symbol: "BTC" } },
  handler: async ({ actor, query, services }) => {
    const market = services.market(actor.mode);
    const [marks, snapshot] = await Promise.all([market.settlementMarks(query.exchange, query.symbol), market.opportunities()]);
    return {
      data: settlementCoverageAnswer(query.exchange, query.symbol, settlementCoverage(marks), historyReader(query.exchange)?.limits),
      meta: { data_as_of: snapshot.asOf, sample: snapshot.sample, mode: actor.mode },
      validUntil: Date.now() + REUSE_MS,
    };
  },
});
