import type pg from "pg";

// Both the kill-mid-publish test and fault scenario (a) hold an ingestion round's row while its
// process publishes, then read pg_locks to know the process is inside its publishing transaction.

/** Whether another session waits on a lock while it holds the OpportunitySet row it wrote: blocked after writing the new set. */
export async function blockedAfterWritingTheSet(watcher: pg.Client): Promise<boolean> {
  const { rows } = await watcher.query(
    `SELECT count(*)::int AS n FROM pg_locks waiting
      WHERE NOT waiting.granted AND waiting.pid <> pg_backend_pid()
        AND EXISTS (SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                     WHERE l.pid = waiting.pid AND c.relname = 'OpportunitySet' AND l.mode = 'RowExclusiveLock')`,
  );
  return rows[0].n > 0;
}

/** Whether any other session still holds a lock on OpportunitySet (a killed publisher's transaction not yet aborted). */
export async function holdingTheSet(watcher: pg.Client): Promise<boolean> {
  const { rows } = await watcher.query(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
      WHERE c.relname = 'OpportunitySet' AND l.pid <> pg_backend_pid()`,
  );
  return rows[0].n > 0;
}
