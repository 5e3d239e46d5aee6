import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "@/clients/typescript/src/openapi-types";
import { API_ROUTES } from "@/lib/api/app";
import type { ApiRoute } from "@/lib/api/route";
import { openApiPath } from "@/lib/api/openapi/openapi-document";
import { startClientTestServer, type ClientTestServer } from "@/tests/support/client-test-server";
import { routesInExampleOrder } from "@/tests/support/route-order";

// A third-party generator's view of the document: openapi-typescript's types of clients/openapi.json
// (kept current by a unit test) driving openapi-fetch. If the document lied about a path, a parameter
// or a response, these calls would fail to compile or fail here.
let server: ClientTestServer;
let api: ReturnType<typeof createClient<paths>>;
beforeAll(async () => {
  server = await startClientTestServer();
  api = createClient<paths>({ baseUrl: server.baseUrl, headers: { Authorization: `Bearer ${server.keys.desk}` } });
});
afterAll(async () => {
  await server?.close();
});

/**
 * A route's path parameters from what the examples before it created: the id its creator answered,
 * and for a creator that reads a created resource itself (a webhook test event, of an endpoint),
 * that creator's own parameters (lib/api/route.ts, `example.createdBy`).
 */
function createdParams(route: ApiRoute, created: Map<string, string>): Record<string, string> | undefined {
  const createdBy = route.example?.createdBy;
  if (!createdBy) return route.example?.params;
  const creator = API_ROUTES.find((r) => r.operationId === createdBy)!;
  const inherited = createdParams(creator, created) ?? {};
  const names = Object.keys(route.example?.params ?? {});
  return Object.fromEntries(names.map((name) => [name, inherited[name] ?? created.get(createdBy)!]));
}

describe("openapi-typescript + openapi-fetch against a real server", () => {
  it("calls every operation of the app through the document's paths, with its example", async () => {
    // Each route after the one creating what it reads, so it finds the id here; closing and deleting last.
    const created = new Map<string, string>();
    for (const route of routesInExampleOrder(API_ROUTES)) {
      const untyped = api as unknown as Record<string, (path: string, init: object) => Promise<{ response: Response; data?: unknown }>>;
      const params = createdParams(route, created);
      const { response, data } = await untyped[route.method]!(openApiPath(route.path), {
        params: { path: params, query: route.example?.query },
        ...(route.example?.body && { body: route.example.body }),
      });
      expect(response.status, `${route.method} ${route.path}`).toBe(route.status ?? 200);
      expect(data).toHaveProperty("data");
      const id = (data as { data: { id?: unknown } }).data.id;
      if (typeof id === "string") created.set(route.operationId, id);
    }
  });

  it("orders the examples itself, whatever order the app lists its routes in", () => {
    const orders = [API_ROUTES, [...API_ROUTES].reverse(), [...API_ROUTES].sort((a, b) => a.operationId.localeCompare(b.operationId))];
    for (const routes of orders) {
      const order = routesInExampleOrder(routes).map((r) => r.operationId);
      const at = (operationId: string) => order.indexOf(operationId);
      for (const route of routes) {
        const createdBy = route.example?.createdBy;
        if (!createdBy) continue;
        expect(at(createdBy), `${createdBy} before ${route.operationId}`).toBeLessThan(at(route.operationId));
        // Reads and edits of a created resource, then what closes it, then what deletes it.
        const late = (r: (typeof routes)[number]) => (r.method === "DELETE" ? 2 : r.method === "POST" && r.params ? 1 : 0);
        for (const other of routes.filter((r) => r.example?.createdBy === createdBy && late(r) < late(route))) {
          expect(at(other.operationId), `${other.operationId} before ${route.operationId}`).toBeLessThan(at(route.operationId));
        }
      }
    }
  });

  it("types every call the way the server answers it", async () => {

    const verify = await api.GET("/v1/auth/verify");
    expect(verify.data?.data.valid).toBe(true);

    const list = await api.GET("/v1/opportunities", { params: { query: { limit: 3, exchange: "binance", sort: "-net_apr" } } });
    expect(list.error).toBeUndefined();
    expect(list.data?.data.items).toHaveLength(3);
    expect(list.data?.meta.mode).toBe("live");

    const id = list.data!.data.items[0]!.id;
    const one = await api.GET("/v1/opportunities/{id}", { params: { path: { id } } });
    expect(one.data?.data.id).toBe(id);

    const exchanges = await api.GET("/v1/exchanges");
    expect(exchanges.data?.data.items.map((e) => e.id)).toContain("binance");

    const simulation = await api.POST("/v1/simulations", {
      body: { long: { exchange: "binance", symbol: "btc" }, short: { exchange: "bybit", symbol: "BTC" }, notional_usd: 5000, holding_days: 3 },
    });
    expect(simulation.response.status).toBe(201);
    expect(simulation.data?.data).toMatchObject({ symbol: "BTC", mode: "projected", opportunity_id: null });
    const stored = await api.GET("/v1/simulations/{id}", { params: { path: { id: simulation.data!.data.id } } });
    expect(stored.data?.data).toEqual(simulation.data?.data);

    const rates = await api.GET("/v1/funding-rates", {
      params: { query: { exchange: "okx", symbol: "eth", from: "2026-11-01", to: "2026-11-20T00:00:00Z" } },
    });
    expect(rates.data?.meta).toMatchObject({ from: "2026-11-01T00:00:00.000Z", to: "2026-11-20T00:00:00.000Z" });
  });

  it("gets the documented error envelope", async () => {
    const { error, response } = await api.GET("/v1/opportunities", { params: { query: { limit: 101 } } });
    expect(response.status).toBe(400);
    expect(error?.error.code).toBe("VALIDATION_ERROR");
    expect(error?.error.details?.[0]?.field).toBe("limit");
  });
});
