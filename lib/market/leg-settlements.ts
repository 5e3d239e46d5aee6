import type { Db } from "@/lib/db";
import type { KeyMode } from "@/lib/keys/mode";
import type { FundingSettlement } from "./funding-settlement";
import { storedLegHistory } from "./leg-history";
import { sandboxFundingHistory, sandboxHistoryKey } from "./sandbox-funding-history";

/** One leg's settlements in [from, to], oldest first: stored history for live keys, the sandbox's (7 days) for test keys. */
export async function legSettlements(
  db: () => Promise<Db>,
  mode: KeyMode,
  symbol: string,
  leg: { exchange: string; market: string },
  from: Date,
  to: Date,
): Promise<FundingSettlement[]> {
  if (mode === "live") return storedLegHistory(await db(), leg, from, to);
  const [start, end] = [from.getTime(), to.getTime()];
  return (sandboxFundingHistory(to).get(sandboxHistoryKey(leg.exchange, symbol)) ?? []).filter((r) => {
    const time = Date.parse(r.time);
    return r.market === leg.market && time >= start && time <= end;
  });
}
