-- The Opportunity rows were rewritten every round beside OpportunitySet.items, which is all the API
-- serves (lib/market/live-opportunities.ts), and nothing read them but tests and a benchmark.

-- DropTable
DROP TABLE "Opportunity";
