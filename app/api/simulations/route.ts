// POST /api/simulations — the screener's "Simulate": runs and stores a simulation in live mode for the signed-in user.
import { readJson } from "@/lib/api/read-json";
import { runSimulation } from "@/lib/api/routes/create-simulation";
import { apiServices } from "@/lib/api/services";
import { withSession } from "@/lib/auth/with-session";
import { webActor } from "@/lib/portfolio/web-actor";
import { simulationInputSchema } from "@/lib/sim/simulation-schema";

export const POST = withSession("user", async ({ request, user }) => {
  const actor = webActor(user);
  const body = await readJson(request, simulationInputSchema);
  return { data: await runSimulation(apiServices(), actor, body), status: 201 };
});
