import type { FundingObservation } from "./build-snapshot";
import { errorMessage } from "./venue-adapter";

/**
 * The observations of venues that state funding only in a per-instrument ticker (GRVT, Derive):
 * one request per perpetual, all at once (the venue's throttle spaces them). A failed one costs
 * that market its rate, named in a warning; all of them failing makes the venue stale.
 */
export async function tickerPerMarket<M extends { id?: string }>(
  perpetuals: readonly M[],
  observe: (market: M) => Promise<FundingObservation>,
): Promise<{ observations: FundingObservation[]; warnings: string[] }> {
  const answers = await Promise.all(
    perpetuals.map(async (market) => {
      try {
        return { market, observation: await observe(market) };
      } catch (error) {
        return { market, error };
      }
    }),
  );
  const observations: FundingObservation[] = [];
  const failed: { id: string; error: unknown }[] = [];
  for (const answer of answers) {
    if (answer.observation) observations.push(answer.observation);
    else failed.push({ id: answer.market.id ?? "", error: answer.error });
  }
  const warnings: string[] = [];
  const [first] = failed;
  if (first && observations.length === 0) throw first.error;
  if (first) {
    const ids = failed.slice(0, 5).map((f) => f.id).join(", ") + (failed.length > 5 ? ", …" : "");
    warnings.push(`ticker: ${failed.length} of ${perpetuals.length} failed (${ids}): ${errorMessage(first.error)}`);
  }
  return { observations, warnings };
}
