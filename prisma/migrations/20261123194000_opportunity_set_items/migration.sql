-- The served items move from one jsonb payload per Opportunity row to one value on the set.

-- AlterTable
ALTER TABLE "OpportunitySet" ADD COLUMN     "items" BYTEA;
-- Already gzipped by the application: stored out of line without pglz trying again.
ALTER TABLE "OpportunitySet" ALTER COLUMN "items" SET STORAGE EXTERNAL;

-- Carry the published set over (as plain UTF-8 JSON, which the reader also accepts), so an install
-- that only ever had the offline sample keeps serving it.
UPDATE "OpportunitySet"
SET "items" = convert_to((SELECT COALESCE(json_agg("payload" ORDER BY "id")::text, '[]') FROM "Opportunity"), 'UTF8')
WHERE "id" = 'live';

-- AlterTable
ALTER TABLE "Opportunity" DROP COLUMN "payload";
