/** Time as the budget sees it, so tests run it on a fake clock. */
export interface BudgetClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: BudgetClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A token bucket: `ratePerSecond` requests a second on average, at most `burst` at once after a
 * pause. Requests wait their turn in order (a request that arrives while others wait queues behind
 * them), so a venue never sees more than its rate from this process however many walks share it.
 */
export class RequestBudget {
  private tokens: number;
  private refilledAt: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly clock: BudgetClock = systemClock,
  ) {
    if (!(ratePerSecond > 0) || !(burst >= 1)) throw new Error(`RequestBudget: rate ${ratePerSecond}/s and burst ${burst} must be positive`);
    this.tokens = burst;
    this.refilledAt = clock.now();
  }

  /** Waits until a request may be made, and counts it. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.takeNow());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** How long the next request would wait now, in ms (0: at once). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1_000) / this.ratePerSecond);
  }

  private async takeNow(): Promise<void> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) await this.clock.sleep(wait);
    this.tokens -= 1;
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1_000) * this.ratePerSecond);
    this.refilledAt = now;
  }
}

/**
 * The share of a venue's published rate the backfill takes: the live rounds keep the rest. A round
 * asks each venue a handful of requests a minute (lib/market/venues/), far below half of any venue's
 * limit, so half leaves the live polling its room without the two sharing one bucket across the
 * venue thread and the processes. docs/decisions/history-backfill.md weighs the choice.
 */
export function backfillRate(requestsPerSecond: number, share: number): number {
  return requestsPerSecond * share;
}

const budgets = new Map<string, RequestBudget>();

/**
 * The process's one budget for `exchange`'s history requests: every walk of the venue in this
 * process draws from it (the job runner's and the CLI's), at the backfill's share of its rate.
 */
export function venueBudget(exchange: string, requestsPerSecond: number, share: number, clock: BudgetClock = systemClock): RequestBudget {
  const rate = backfillRate(requestsPerSecond, share);
  let budget = budgets.get(exchange);
  if (!budget || budget.ratePerSecond !== rate) {
    budget = new RequestBudget(rate, Math.max(1, Math.floor(rate)), clock);
    budgets.set(exchange, budget);
  }
  return budget;
}
