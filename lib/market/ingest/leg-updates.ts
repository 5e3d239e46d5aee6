import type { MarketSnapshot } from "../model/types";

/**
 * Where the legs that changed between rounds go: the micro-batch publisher. The live feeds (streams,
 * and venues polled at their own cadence) push each changed market's whole merged snapshot (the
 * message's fields over the last round's, `transport` set, `observedAt` the venue's time for the
 * message or its arrival); the publisher gathers them for about a second and publishes only the
 * pairs whose legs changed.
 */
export interface LegUpdateSink {
  push(changed: readonly MarketSnapshot[]): void;
}
