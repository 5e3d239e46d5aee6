import { defineConfig } from "prisma/config";

// The CLI is used only for `prisma generate`; migrations run through lib/db/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
});
