import { describe, expect, it } from "vitest";
import { emptyCarryColumns } from "@/lib/market/carry/carry-columns";
import { CarrySnapshot } from "@/lib/market/carry/carry-query";
import { CarryHistory } from "./delayed-carry";

const set = (asOf: string) => new CarrySnapshot(emptyCarryColumns(), asOf, false);
const at = (iso: string) => new Date(iso);

describe("CarryHistory", () => {
  it("shows a set already older than the delay (the sample, stalled ingestion) as it is", () => {
    const sample = new CarrySnapshot(emptyCarryColumns(), "2023-01-16T08:51:27.947Z", true);
    expect(new CarryHistory().delayed(sample, at("2026-12-04T12:00:00Z"))).toEqual({ status: "ready", snapshot: sample });
    const never = CarrySnapshot.empty();
    expect(new CarryHistory().delayed(never, at("2026-12-04T12:00:00Z"))).toEqual({ status: "ready", snapshot: never });
  });

  it("says when a set first read too recently becomes old enough, and shows none newer than the delay", () => {
    const history = new CarryHistory();
    expect(history.delayed(set("2026-12-04T12:00:00Z"), at("2026-12-04T12:01:00Z"))).toEqual({ status: "pending", availableAt: "2026-12-04T12:15:00.000Z" });
    expect(history.delayed(set("2026-12-04T12:10:00Z"), at("2026-12-04T12:11:00Z"))).toEqual({ status: "pending", availableAt: "2026-12-04T12:15:00.000Z" });
  });

  it("shows the newest set read that is at least the delay old, and forgets the older ones", () => {
    const history = new CarryHistory();
    const first = set("2026-12-04T12:00:00Z");
    const second = set("2026-12-04T12:05:00Z");
    history.delayed(first, at("2026-12-04T12:00:30Z"));
    history.delayed(second, at("2026-12-04T12:05:30Z"));
    expect(history.delayed(set("2026-12-04T12:19:00Z"), at("2026-12-04T12:19:30Z"))).toEqual({ status: "ready", snapshot: first });
    expect(history.delayed(set("2026-12-04T12:20:00Z"), at("2026-12-04T12:20:30Z"))).toEqual({ status: "ready", snapshot: second });
    // The first is forgotten: a clock that went back finds nothing old enough rather than the first.
    expect(history.delayed(set("2026-12-04T12:20:00Z"), at("2026-12-04T12:19:30Z"))).toEqual({ status: "pending", availableAt: "2026-12-04T12:20:00.000Z" });
  });
});
