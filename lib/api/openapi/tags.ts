import { planNames, plansWith } from "@/lib/plans";

/**
 * The groups of the reference, in the order it lists them, each with the description the
 * document gives it. A route names its group by one of these keys (`ApiRoute.tag`), so a group
 * cannot be used without being described.
 */
export const API_TAGS = {
  Authentication: "Checking an API key: whether it is accepted, its account's tier, its mode and what it may do.",
  Opportunities:
    "Cross-exchange funding-rate arbitrage opportunities: each pair of perpetual markets on one asset, ranked by annualised return.",
  "Market data": "What the opportunities are computed from: each exchange's data health and the funding settlements recorded.",
  Simulations: "Projected or historical funding P&L of a position, stored per account and key mode.",
  Portfolio: "Positions you track, with the funding each has earned since it was opened; changing it needs the `write` permission.",
  Account: "Your account's settings: the taker fee you pay on each exchange, which quotes and simulations charge; changing it needs the `write` permission.",
  Events:
    "Changes to the market as they happen (opportunities opened, moved and closed; funding intervals changed; venues stale or " +
    "recovered), kept 30 days by default: page through them, or receive them live on a stream.",
  Webhooks:
    "Endpoints the service POSTs events to, signed as Standard Webhooks specifies, with their delivery logs; keys of the " +
    `${planNames(plansWith("webhooks"))} plans manage them, with the permission each operation names.`,
  Alerts:
    "Rules that watch the market's events (opportunities, interval changes, stale venues) and raise an `alert.triggered` event for " +
    "your account, on the stream, on GET /v1/events and to chosen webhook endpoints, with a cool-down per subject.",
  Usage: "Requests made with the account's keys, per hour or day, per key and per route, and how close each key runs to its rate limit.",
} as const satisfies Record<string, string>;

export type ApiTag = keyof typeof API_TAGS;
