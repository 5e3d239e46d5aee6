import { z } from "zod";
import { simulationResultSchema } from "@/lib/sim/result-schema";
import { simulationSchema, type Simulation } from "@/lib/sim/simulation-schema";

/** What a stored simulation's `input` holds beside the result: the request as resolved. */
export const storedInputSchema = z.object({
  opportunity_id: z.string().nullable(),
  symbol: z.string(),
  fee_bps: z.number().nullable(),
  slippage_bps: z.number(),
});

/** A Simulation row as the API serves it, parsed through its schema so nothing unlisted leaves. */
export function toSimulation(row: { id: string; createdAt: Date; input: unknown; result: unknown }): Simulation {
  return simulationSchema.parse({
    ...simulationResultSchema.parse(row.result),
    ...storedInputSchema.parse(row.input),
    id: row.id,
    created_at: row.createdAt.toISOString(),
  });
}
