import { keyModeToDb } from "@/lib/keys/mode";
import { simulationSchema } from "@/lib/sim/simulation-schema";
import { z } from "zod";
import { pageSchema } from "../openapi/shared-schemas";
import { pageParams } from "../query";
import type { ApiRoute } from "../route";
import { withApiKey } from "../with-api-key";
import { simulationMetaSchema } from "./create-simulation";
import { toSimulation } from "./simulation-record";

export const simulationsQuery = z.strictObject({
  ...pageParams(100, 20),
});

// GET /v1/simulations — the caller's stored simulations of the key's mode, newest first.
export const simulationsRoute: ApiRoute = {
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
  data: pageSchema(simulationSchema),
  meta: simulationMetaSchema,
  handler: (services) =>
    withApiKey(services, { permission: "simulations:read", query: simulationsQuery }, async ({ key, query }) => {
      const db = await services.db();
      const where = { userId: key.userId, keyMode: keyModeToDb(key.mode) };
      const [rows, total] = await db.$transaction([
        db.simulation.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: query.offset, take: query.limit }),
        db.simulation.count({ where }),
      ]);
      return {
        data: {
          items: rows.map(toSimulation),
          total,
          limit: query.limit,
          offset: query.offset,
          has_more: query.offset + rows.length < total,
        },
        meta: { mode: key.mode },
      };
    }),
};
