import type { CarrySnapshot } from "@/lib/market/carry/carry-query";
import { delayCutoff, delayedSource, FREE_DELAY_MS } from "./delay";

export type DelayedCarry =
  | { status: "ready"; snapshot: CarrySnapshot }
  /** No carry set this process has seen is old enough yet; `availableAt` is when the oldest it holds will be (ISO). */
  | { status: "pending"; availableAt: string | null };

/**
 * The carry sets this process has served lately, so the delayed view can show one at least the
 * delay old. The carry set is stored as one row replaced each round, with no history to recompute
 * an older one from (as the perp set's delayed view does from stored rounds), so each process
 * remembers the sets it read: every set newer than the cutoff and the newest one older, nothing
 * else. A process that read none old enough says when it will have one; the promise (never newer
 * than the delay) holds however seldom it reads, the set shown only being older.
 */
export class CarryHistory {
  private held: CarrySnapshot[] = [];

  /** The set to show a delayed plan at `now`, given the live one; remembers the live one. */
  delayed(live: CarrySnapshot, now: Date): DelayedCarry {
    if (delayedSource(live.asOf, now) === "live-set") return { status: "ready", snapshot: live };
    if (!this.held.includes(live)) this.held.push(live);
    const cutoff = delayCutoff(now).getTime();
    // Newest first; the first old enough is the one shown, and older ones are of no more use.
    this.held.sort((a, b) => Date.parse(b.asOf!) - Date.parse(a.asOf!));
    const shown = this.held.findIndex((set) => Date.parse(set.asOf!) <= cutoff);
    if (shown >= 0) {
      this.held = this.held.slice(0, shown + 1);
      return { status: "ready", snapshot: this.held[shown]! };
    }
    const oldest = this.held.at(-1)!;
    return { status: "pending", availableAt: new Date(Date.parse(oldest.asOf!) + FREE_DELAY_MS).toISOString() };
  }
}
