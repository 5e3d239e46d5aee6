// The argument handling and error reporting db:backup and db:restore share.
import { DataDirLockedError } from "@/lib/db/data-dir-lock";
import { BackupError } from "@/lib/db/backup";

export function runCommand(name: string, work: (file: string, force: boolean) => Promise<void>): void {
  const args = process.argv.slice(2);
  const force = args.includes("--force");
  const files = args.filter((a) => a !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("-")) {
    console.error(`usage: npm run ${name} -- <file> [--force]`);
    process.exit(2);
  }
  work(files[0]!, force).then(
    () => process.exit(0),
    (error: unknown) => {
      // Expected refusals are one line; anything else gets its stack.
      const known = error instanceof BackupError || error instanceof DataDirLockedError || (error instanceof Error && error.message.startsWith("DATABASE_URL"));
      console.error(`${name} failed: ${known ? (error as Error).message : error instanceof Error ? error.stack : String(error)}`);
      process.exit(1);
    },
  );
}
