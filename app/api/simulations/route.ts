// POST /api/simulations — the screener's "Simulate": runs and stores a simulation in live mode for the signed-in user.
import { webActor } from "@/lib/actor";
import { appServices } from "@/lib/app-services";
import { readJson } from "@/lib/api/read-json";
import { withSession } from "@/lib/api/with-session";
import { simulationInputSchema } from "@/lib/sim/simulation-schema";
import { runSimulation } from "@/lib/sim/simulations";

export const POST = withSession("user", async ({ request, user }) => {
  const actor = webActor(user);
  const body = await readJson(request, simulationInputSchema);
  return { data: await runSimulation(appServices(), actor, body), status: 201 };
});
