import { isBudgetedVenue, systemClock, venueBudgets, type BudgetClock, type VenueBudgets } from "@/lib/market/venues/venue-budget";

export { systemClock, type BudgetClock };

/**
 * A token bucket of this process: `ratePerSecond` requests a second on average, at most `burst` at
 * once after a pause. Requests wait their turn in order (a request that arrives while others wait
 * queues behind them). The backfill keeps one per venue for the history endpoint's own limit (Binance's
 * `fundingRate` has 500 per 5 minutes of its own), below the venue's shared budget.
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

/** What a history request waits for. */
export interface HistoryBudget {
  take(): Promise<void>;
}

const endpointBudgets = new Map<string, RequestBudget>();

/** The process's one bucket for `exchange`'s history endpoint, at the rate its reader states. */
export function endpointBudget(exchange: string, requestsPerSecond: number, clock: BudgetClock = systemClock): RequestBudget {
  let budget = endpointBudgets.get(exchange);
  if (!budget || budget.ratePerSecond !== requestsPerSecond) {
    budget = new RequestBudget(requestsPerSecond, Math.max(1, Math.floor(requestsPerSecond)), clock);
    endpointBudgets.set(exchange, budget);
  }
  return budget;
}

/**
 * What a backfill request of `exchange` waits for: its turn at the history endpoint's own limit,
 * then a backfill token from the venue's budget, which it shares with the live rounds and the
 * quotes and takes only above their reserve (lib/market/venues/venue-budget.ts). A walk of every
 * market of the venue in this process draws from both (the job runner's and the CLI's).
 */
export function backfillBudget(exchange: string, requestsPerSecond: number, budgets: VenueBudgets = venueBudgets()): HistoryBudget {
  const endpoint = endpointBudget(exchange, requestsPerSecond);
  return {
    take: async () => {
      await endpoint.take();
      if (isBudgetedVenue(exchange)) await budgets.take(exchange, "backfill");
    },
  };
}
