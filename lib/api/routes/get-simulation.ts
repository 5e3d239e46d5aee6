import { simulationSchema } from "@/lib/sim/simulation-schema";
import { getSimulation } from "@/lib/sim/simulations";
import { simulationIdParams, simulationMetaSchema } from "../openapi/shared-schemas";
import { defineRoute } from "../route";

// GET /v1/simulations/:id — one stored simulation of the caller's, in the key's mode.
export const getSimulationRoute = defineRoute({
  method: "GET",
  path: "/v1/simulations/:id",
  operationId: "getSimulation",
  summary: "Get one of your simulations",
  description:
    "A simulation as POST /v1/simulations returned it. Another account's simulation, or one run with a key of the other mode " +
    "(live vs test), is 404 NOT_FOUND, as is an id that does not exist.",
  tag: "Simulations",
  permission: "simulations:read",
  params: simulationIdParams,
  data: simulationSchema,
  meta: simulationMetaSchema,
  example: { params: { id: "SIMULATION_ID" }, createdBy: "createSimulation" },
  handler: async ({ actor, params, services }) => ({
    data: await getSimulation(services, actor, params.id),
    meta: { mode: actor.mode },
  }),
});
