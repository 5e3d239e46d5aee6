import type { OpportunityLeg } from "@/lib/market/model/types";

/**
 * A valid opportunity leg (0.01 % per 8 h as the venue states it, nothing known beyond the rate and
 * price); tests override what they are about.
 */
export function makeLeg(overrides: Partial<OpportunityLeg> & Pick<OpportunityLeg, "exchange">): OpportunityLeg {
  return {
    market: "ETH/USDT:USDT",
    funding_rate: 0.0001,
    funding_interval_hours: 8,
    funding_interval_source: "venue",
    funding_rate_per_hour: 0.0000125,
    predicted_funding_rate: null,
    last_settled_rate: null,
    last_settled_at: null,
    rate_cap: null,
    rate_floor: null,
    at_cap: false,
    next_funding_at: null,
    mark_price: 100,
    open_interest_usd: null,
    volume_24h_usd: null,
    interval_changed_at: null,
    observed_at: null,
    transport: "poll",
    ...overrides,
  };
}
