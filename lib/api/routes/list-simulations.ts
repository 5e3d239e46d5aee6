import { simulationSchema } from "@/lib/sim/simulation-schema";
import { listSimulations } from "@/lib/sim/simulations";
import { defineRoute } from "../route";
import { pagedListOf, simulations } from "./mode-resources";

// GET /v1/simulations — the caller's stored simulations of the key's mode, newest first.
export const listSimulationsRoute = defineRoute({
  method: "GET",
  path: "/v1/simulations",
  operationId: "listSimulations",
  summary: "List your simulations",
  description:
    "The simulations of the key's account, newest first. Live keys see the simulations run with live keys, " +
    "test keys those run with test keys; never each other's.",
  tag: "Simulations",
  permission: "simulations:read",
  ...pagedListOf(simulations, simulationSchema, listSimulations),
});
