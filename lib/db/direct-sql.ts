import { processSingleton } from "@/lib/singleton";
import { bindMessagePieces, type BindConfig } from "./bind-message";
import { poolStats, type PoolStats } from "./database-stats";
import type { PrismaClient } from "./generated/client";

/** One statement: its text with `$1`… placeholders, and their values (texts, numbers, arrays of them, bytes). */
export interface SqlStatement {
  text: string;
  values: readonly unknown[];
  /**
   * Makes it a prepared statement of that name on each PostgreSQL connection (one text per name):
   * parsed once, and its plan kept once PostgreSQL finds the generic one as cheap, for a statement
   * run hundreds of thousands of times whose planning would cost more than its execution (one
   * over every month partition of FundingRate). PGlite ignores it.
   */
  name?: string;
  /**
   * Told the rows the statement answered whenever the driver runs it (a runner's `query`): how the
   * event log's append, run inside a publish's transaction, tells where its events went without a
   * statement of its own.
   */
  answered?: (rows: readonly Record<string, unknown>[]) => void;
}

export interface SqlRunner {
  /** The statement's rows; `timestamp` columns come back as Dates read as UTC, as Prisma reads them. */
  query<Row = Record<string, unknown>>(statement: SqlStatement): Promise<Row[]>;
}

/**
 * The database's driver itself, beside Prisma, for the ingestion round's statements that carry
 * tens of thousands of values or megabytes (a round's 16,000 observations, the published set's
 * 2 MB compressed): Prisma's query compiler passes every parameter through its WebAssembly as JSON and back,
 * which cost a round more of this process's time than the database spent on the statements.
 * Everything else goes through Prisma.
 */
export interface DirectSql extends SqlRunner {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/**
 * Data-modifying statements as one (each a `WITH` query of it, its `$n` renumbered), so they reach
 * the database in one message and commit together as any single statement does: a transaction of
 * several takes a round trip each, and each of those waits for this thread, which a round keeps
 * busy ranking meanwhile. PostgreSQL runs every data-modifying `WITH` query to completion, read or
 * not; they see the same snapshot, so they must not depend on each other's writes.
 */
export function asOneStatement(statements: readonly SqlStatement[]): SqlStatement {
  let offset = 0;
  const parts = statements.map((statement, i) => {
    const shift = offset;
    offset += statement.values.length;
    return `s${i} AS (${statement.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`)})`;
  });
  return { text: `WITH ${parts.join(",\n")}\nSELECT 1`, values: statements.flatMap((s) => s.values) };
}

/**
 * Each client's driver, once per process: the server's copy of lib/ opens the database and Next's
 * copy reads through it (lib/singleton.ts), so a module-scope map would know only half the clients.
 */
const opened = () => processSingleton("direct-sql", () => new WeakMap<PrismaClient, DirectSql>());

/** Called by openDatabase: the driver under `db`. */
export function registerDirectSql(db: PrismaClient, sql: DirectSql): void {
  opened().set(db, sql);
}

/** The driver under a client openDatabase opened. */
export function directSql(db: PrismaClient): DirectSql {
  const sql = opened().get(db);
  if (!sql) throw new Error("directSql: this Prisma client was not opened by openDatabase, so its driver is not known");
  return sql;
}

/** PostgreSQL's `timestamp` (without time zone) type. */
const TIMESTAMP = 1114;

/**
 * A `timestamp` as the instant it stands for: the schema stores UTC, and both drivers would read
 * it in the process's own time zone.
 */
function utcTimestamp(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

/** PostgreSQL through node-postgres: a pool of two beside Prisma's own. */
export async function postgresDirectSql(url: string): Promise<DirectSql & { close(): Promise<void>; stats(): PoolStats }> {
  const { default: pg } = await import("pg");
  const types = {
    getTypeParser: ((oid: number, format?: "text" | "binary") =>
      oid === TIMESTAMP ? utcTimestamp : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({ connectionString: url, max: 2, types, Client: piecewiseBindClient(pg.Client) });
  // An idle client's error (the server restarted) is the next query's to report, not the process's
  // end: dropped here, since that query's failure is logged by whoever ran it.
  pool.on("error", () => undefined);
  const runner = (client: Pick<import("pg").PoolClient, "query">): SqlRunner => ({
    async query<Row>(statement: SqlStatement) {
      const values = statement.values as unknown[];
      const result = statement.name ? await client.query({ name: statement.name, text: statement.text, values }) : await client.query(statement.text, values);
      statement.answered?.(result.rows as Record<string, unknown>[]);
      return result.rows as Row[];
    },
  });
  return {
    ...runner(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(runner(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // The work's error is the one thrown; a ROLLBACK that fails too (the connection died) adds nothing.
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
    stats: () => poolStats("direct", pool),
  };
}

/** node-postgres's connection, as far as sending a Bind message goes. */
interface BindingConnection {
  stream: { writable: boolean; write(chunk: Buffer): boolean };
  bind(config: BindConfig): void;
}

/**
 * node-postgres's client with its Bind messages written in pieces (bind-message.ts): the round's
 * and the published set's megabytes go out as the buffers their columns are, not copied into a
 * message grown to hold them. Queries hand their values to `connection.bind` with the socket
 * corked (pg's Query.submit), so the pieces still leave in one write.
 */
function piecewiseBindClient(Client: typeof import("pg").Client): typeof import("pg").Client {
  return class extends Client {
    constructor(config?: ConstructorParameters<typeof Client>[0]) {
      super(config);
      const connection = (this as unknown as { connection: BindingConnection }).connection;
      connection.bind = (bind) => {
        const pieces = bindMessagePieces(bind);
        if (!connection.stream.writable) return;
        for (const piece of pieces) connection.stream.write(piece);
      };
    }
  };
}

type PgliteQuery = <Row>(text: string, values?: unknown[], options?: { parsers?: Record<number, (text: string) => unknown> }) => Promise<{ rows: Row[] }>;

interface PgliteLike {
  query: PgliteQuery;
  transaction<T>(work: (tx: { query: PgliteQuery }) => Promise<T>): Promise<T>;
}

/** The embedded database: PGlite's own queries and transactions (one at a time, as all of PGlite's). */
export function pgliteDirectSql(pglite: PgliteLike): DirectSql {
  const parsers = { [TIMESTAMP]: utcTimestamp };
  const runner = (target: Pick<PgliteLike, "query">): SqlRunner => ({
    async query<Row>(statement: SqlStatement) {
      const { rows } = await target.query<Row>(statement.text, statement.values as unknown[], { parsers });
      statement.answered?.(rows as Record<string, unknown>[]);
      return rows;
    },
  });
  return { ...runner(pglite), transaction: (work) => pglite.transaction((tx) => work(runner(tx))) };
}
