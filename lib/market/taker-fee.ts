import type { Db } from "@/lib/db";
import type { KeyMode } from "@/lib/keys/mode";
import { generateSandboxMarket } from "./sandbox/generate-sandbox-market";

/** The venue's stated taker fee for a market, from its latest observation (the sandbox's for test keys); null when unknown. */
export async function takerFee(db: () => Promise<Db>, mode: KeyMode, leg: { exchange: string; market: string }, now: Date): Promise<number | null> {
  if (mode === "test") {
    const snapshot = generateSandboxMarket(now).snapshots.find((s) => s.exchange === leg.exchange && s.market === leg.market);
    return snapshot?.takerFee ?? null;
  }
  const latest = await (await db()).roundSnapshot.findFirst({
    where: { exchange: leg.exchange, market: leg.market },
    orderBy: { observedAt: "desc" },
    select: { takerFee: true },
  });
  return latest?.takerFee ?? null;
}
