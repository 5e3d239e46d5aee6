import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { API_ROUTES } from "./app";
import { cachedReadQuery } from "./cached-read";

const route = (operationId: string) => API_ROUTES.find((r) => r.operationId === operationId)!;
const listOpportunitiesRoute = route("listOpportunities");
const listExchangesRoute = route("listExchanges");

const schema = listOpportunitiesRoute.query!;
const url = (search: string) => `http://localhost/v1/opportunities${search}`;

describe("cachedReadQuery", () => {
  it("normalises: the same answer's queries give the same key text, defaults filled in", () => {
    const a = cachedReadQuery(listOpportunitiesRoute, url("?limit=50"), schema);
    const b = cachedReadQuery(listOpportunitiesRoute, url("?sort=-apr&offset=0&limit=50.0"), schema);
    expect(b.text).toBe(a.text);
    expect(a.value).toEqual({ limit: 50, offset: 0, sort: "-apr" });
    expect(cachedReadQuery(listOpportunitiesRoute, url("?symbol=btc"), schema).value).toMatchObject({ symbol: "BTC" });
  });

  it("remembers a valid query string, frozen, and refuses an invalid one every time", () => {
    const first = cachedReadQuery(listOpportunitiesRoute, url("?limit=7"), schema);
    expect(cachedReadQuery(listOpportunitiesRoute, url("?limit=7"), schema)).toBe(first);
    expect(Object.isFrozen(first.value)).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect(() => cachedReadQuery(listOpportunitiesRoute, url("?limit=500"), schema)).toThrow(AppError);
    }
    const long = `?symbol=BTC&${"x".repeat(300)}=1`;
    expect(() => cachedReadQuery(listOpportunitiesRoute, url(long), schema)).toThrow(AppError);
  });

  it("gives a route without parameters no value and refuses any parameter", () => {
    const none = z.strictObject({});
    expect(cachedReadQuery(listExchangesRoute, "http://localhost/v1/exchanges", none)).toEqual({ value: undefined, text: "" });
    expect(() => cachedReadQuery(listExchangesRoute, "http://localhost/v1/exchanges?status=ok", none)).toThrow(AppError);
  });
});
