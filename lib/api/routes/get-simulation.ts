import { simulationSchema } from "@/lib/sim/simulation-schema";
import { getSimulation } from "@/lib/sim/simulations";
import { defineRoute } from "../route";
import { getOne, simulations } from "./mode-resources";

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
  ...getOne(simulations, simulationSchema, getSimulation),
});
