-- Each round inserts 26,000 observations at 46 venues, and an index by (exchange, market,
-- observedAt) took a fifth of that insert, beside the round's ranking on the same cores. A leg's
-- taker fee is now read from its venue's newest round through ("roundId", exchange).
DROP INDEX "RoundSnapshot_exchange_market_observedAt_idx";
