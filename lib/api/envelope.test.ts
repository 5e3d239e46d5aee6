import { afterEach, describe, expect, it, vi } from "vitest";
import { envelopeAround, responseMeta, successBodyText } from "./envelope";

afterEach(() => vi.useRealTimers());

describe("envelopeAround", () => {
  it.each([undefined, {}, { data_as_of: "2026-11-21T15:59:00.000Z", sample: false, mode: "live" }, { note: 'quote " and \\ backslash' }])(
    "splits successBodyText around meta's timestamp and request id (extra %j)",
    (extra) => {
      vi.useFakeTimers({ now: new Date("2026-11-21T19:04:05.123Z") });
      const dataJson = JSON.stringify({ items: [{ id: "BTC-binance-bybit" }], total: 1 });
      const { before, after } = envelopeAround(dataJson, extra);
      const text = before + responseMeta("2026-11-21T19:04:05.123Z", "req_8ZkT2mQw9XyLp4Rb7Hc1NvDs") + after;
      expect(text).toBe(successBodyText(dataJson, "req_8ZkT2mQw9XyLp4Rb7Hc1NvDs", extra));
    },
  );
});
