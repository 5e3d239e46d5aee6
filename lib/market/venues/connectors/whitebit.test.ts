import { describe, expect, it } from "vitest";
import { whitebitObservation, whitebitUnderlyingClass } from "./whitebit";

describe("whitebitUnderlyingClass", () => {
  it("leaves crypto perpetuals unclassed and classes tradfi ones by ticker, else other", () => {
    expect(whitebitUnderlyingClass({ base: "BTC", info: { type: "futures" } })).toBeUndefined();
    expect(whitebitUnderlyingClass({ base: "GOLD", info: { type: "tradfiFutures" } })).toBe("commodity");
    expect(whitebitUnderlyingClass({ base: "TSLA", info: { type: "tradfiFutures" } })).toBe("equity");
    expect(whitebitUnderlyingClass({ base: "NEWCO", info: { type: "tradfiFutures" } })).toBe("other");
  });
});

describe("whitebitObservation", () => {
  const market = { symbol: "BTC/USDT:USDT", base: "BTC", info: { type: "futures" } };

  it("reads the interval in minutes as hours, the venue's own statement", () => {
    expect(whitebitObservation(market, { funding_rate: "0.0001", funding_interval_minutes: 60 }).interval).toEqual({ hours: 1, source: "venue" });
  });

  it("assumes no interval where the row states none or a non-positive one", () => {
    expect(whitebitObservation(market, { funding_rate: "0.0001" }).interval).toBeNull();
    expect(whitebitObservation(market, { funding_rate: "0.0001", funding_interval_minutes: 0 }).interval).toBeNull();
  });
});
