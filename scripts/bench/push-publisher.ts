// Loaded into the production server by `npm run bench:push` (node --import tsx --import this
// .next/fods/server.mjs, with an IPC channel), so the benchmark can publish events inside the
// server's own process, as a round does on the embedded database, where no other process can open
// the data: the events are appended in one transaction by the log's writer (appendEventStatements,
// the statements a round's publish runs), the commit's time taken as soon as it returns, then this
// process is told (eventsAppended().notify(), as LiveRoundEvents does on commit) so its stream feed
// reads at once. It also answers the server's memory after a full collection. Nothing here runs
// unless the benchmark asks over IPC; the database is the server's own (a process singleton).
import { openServiceDatabase } from "@/lib/db";
import { appendEventStatements, eventsAppended } from "@/lib/events/append-events";
import type { NewEvent } from "@/lib/events/event-data";

export type PublisherRequest = { kind: "publish"; events: NewEvent[] } | { kind: "memory" };
export type PublisherCommand = PublisherRequest & { id: number };

export interface PublisherReply {
  id: number;
  error?: string;
  /** The publish's commit, in ms since the epoch with sub-millisecond precision (performance.timeOrigin + now()). */
  committedAt?: number;
  /** The sequences the published events got: first and last. */
  first?: string;
  last?: string;
  memory?: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
}

const now = () => performance.timeOrigin + performance.now();

async function handle(command: PublisherCommand): Promise<PublisherReply> {
  if (command.kind === "memory") {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    return { id: command.id, memory: { rss, heapUsed, external, arrayBuffers } };
  }
  const db = (await openServiceDatabase()).db;
  const before = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } });
  await db.$transaction(appendEventStatements(db, "live", command.events));
  const committedAt = now();
  eventsAppended().notify();
  const after = await db.marketEvent.findFirst({ orderBy: { sequence: "desc" }, select: { sequence: true } });
  return { id: command.id, committedAt, first: String((before?.sequence ?? 0n) + 1n), last: String(after?.sequence ?? 0n) };
}

process.on("message", (command: PublisherCommand) => {
  handle(command).then(
    (reply) => process.send?.(reply),
    (error: unknown) => process.send?.({ id: command.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
