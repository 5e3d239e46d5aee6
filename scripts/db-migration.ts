// npm run db:migration -- <name>: writes a new migration from the difference between
// prisma/migrations and prisma/schema.prisma, replaying the history into an in-memory PGlite.
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { createMigration } from "@/lib/db/migrations";

const name = process.argv[2];
if (!name) {
  console.error("Usage: npm run db:migration -- <name>   (lowercase letters, digits, underscores)");
  process.exit(2);
}
const shadow = new PGlite();
try {
  const folder = await createMigration(name, new PrismaPGlite(shadow));
  console.log(folder ? `Wrote prisma/migrations/${folder}/migration.sql` : "schema.prisma matches the migration history: nothing to write.");
} finally {
  await shadow.close();
}
