import { z } from "zod";
import { pageParams } from "@/lib/query-params";
import { simulationSchema } from "@/lib/sim/simulation-schema";
import { listSimulations } from "@/lib/sim/simulations";
import { pageSchema, simulationMetaSchema } from "../openapi/shared-schemas";
import { pageFrom } from "@/lib/pagination";
import { defineRoute } from "../route";

const simulationsQuery = z.strictObject({
  ...pageParams(100, 20),
});

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
  query: simulationsQuery,
  data: pageSchema(simulationSchema, simulationsQuery),
  meta: simulationMetaSchema,
  handler: async ({ actor, query, services }) => {
    const { items, total } = await listSimulations(services, actor, query);
    return {
      data: pageFrom(items, total, query),
      meta: { mode: actor.mode },
    };
  },
});
