import { z } from "zod";
import { keyModeToDb } from "@/lib/keys/mode";
import { simulationSchema } from "@/lib/sim/simulation-schema";
import { ApiError } from "../errors";
import { resourceIdParam } from "../validation";
import type { ApiRoute } from "../route";
import { withApiKey } from "../with-api-key";
import { simulationMetaSchema } from "./create-simulation";
import { toSimulation } from "./simulation-record";

const simulationIdParams = z.object({ id: resourceIdParam("The simulation's `id`, as POST /v1/simulations returned it.") });

// GET /v1/simulations/:id — one stored simulation of the caller's, in the key's mode.
export const simulationRoute: ApiRoute = {
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
  handler: (services) =>
    withApiKey(services, { permission: "simulations:read", params: simulationIdParams }, async ({ key, params }) => {
      const db = await services.db();
      const row = await db.simulation.findFirst({ where: { id: params.id, userId: key.userId, keyMode: keyModeToDb(key.mode) } });
      if (!row) throw new ApiError("NOT_FOUND", "No such simulation");
      return { data: toSimulation(row), meta: { mode: key.mode } };
    }),
};
