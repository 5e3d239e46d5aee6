import { describe, expect, it } from "vitest";
import type { VenueFeedMinute } from "@/lib/market/model/venue-feed";
import { feedChartSvg, formatMs, niceCeiling } from "./feed-chart-svg";

const T = Date.parse("2026-12-02T12:00:00.000Z");
const minutes = (values: (number | null)[]): VenueFeedMinute[] => values.map((p99Ms, i) => ({ at: T + i * 60_000, messages: 0, p99Ms }));
const attribute = (svg: string, element: string, name: string) =>
  [...svg.matchAll(new RegExp(`<${element}[^>]* ${name}="([^"]*)"`, "g"))].map((m) => m[1]);

describe("feedChartSvg", () => {
  it("draws each minute's p99 at its place, the top of the axis a round value above the highest", () => {
    const svg = feedChartSvg(minutes([100, 400, 250]), { id: "binance", venue: "Binance" });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-labelledby="binance-title binance-desc"');
    // x from 40 to 236 over three minutes; y from 50 (0 ms) up to 6 (500 ms, the axis top).
    expect(attribute(svg, "polyline", "points")).toEqual(["40,41.2 138,14.8 236,28"]);
    expect(svg).toContain(">500 ms</text>");
    expect(svg).toContain(">now</text>");
  });

  it("breaks the line at a minute without samples and marks a lone minute with a dot", () => {
    const svg = feedChartSvg(minutes([100, 200, null, 300, null]), { id: "okx", venue: "OKX" });
    expect(attribute(svg, "polyline", "points")).toHaveLength(1);
    expect(attribute(svg, "circle", "cx")).toEqual(["187"]);
    expect(svg).toContain("3 of 5 minutes had published changes");
  });

  it("says the chart in words: highest and latest minute", () => {
    const svg = feedChartSvg(minutes([120, 1_500, 80]), { id: "gate", venue: "Gate" });
    expect(svg).toContain('<title id="gate-title">Gate: p99 venue-to-publish latency per minute, last hour</title>');
    expect(svg).toContain("Highest 1.5 s in the minute from 12:01 UTC; latest 80 ms in the minute from 12:02 UTC");
  });

  it("draws no line without samples and says so, and escapes what it is given", () => {
    const svg = feedChartSvg(minutes([null, null]), { id: "a b<c", venue: "A & <B>" });
    expect(svg).not.toContain("<polyline");
    expect(svg).not.toContain("<circle");
    expect(svg).toContain("no published changes");
    expect(svg).toContain("A &amp; &lt;B&gt;: p99");
    expect(svg).toContain('id="a_b_c-title"');
  });
});

describe("niceCeiling and formatMs", () => {
  it("round up to 1, 2, 2.5 or 5 times a power of ten, and read as ms or s", () => {
    expect([0, 3, 180, 400, 2_400, 7_000].map(niceCeiling)).toEqual([0, 5, 200, 500, 2_500, 10_000]);
    expect([850.4, 1_000, 1_234].map(formatMs)).toEqual(["850 ms", "1 s", "1.2 s"]);
  });
});
