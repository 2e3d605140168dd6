import path from "node:path";
import { mkdirSync } from "node:fs";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { getEnv } from "@/lib/env";
import { recordStatement } from "@/lib/telemetry/tracing";

// No relational schema: the app queries with the SQL-like builders only, and a database made with
// one builds a relational query builder per table for every transaction it opens.
type NoSchema = Record<string, never>;
export type Db = PgDatabase<PgQueryResultHKT, NoSchema>;
export type Tx = PgTransaction<PgQueryResultHKT, NoSchema, ExtractTablesWithRelations<NoSchema>>;
export type DbOrTx = Db | Tx;

type Handle = { db: Db; close: () => Promise<void> };

// One handle per process, shared through globalThis: Next.js may load this module in several
// bundles (instrumentation, each route), and PGlite must never be opened twice on one directory.
const globalForDb = globalThis as unknown as { __goodfundDb?: Promise<Handle> };

/** The `application_name` the app's Postgres connections carry (pg_stat_activity; the metrics count them by it). */
export const APPLICATION_NAME = "goodfund";

/** How drizzle is set up over either driver (and over a postgres.js transaction: db/transaction.ts). */
export const DRIZZLE_CONFIG = { casing: "snake_case" } as const;

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "db", "migrations");

async function open(): Promise<Handle> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(env.DATABASE_URL, {
      max: env.DATABASE_POOL_SIZE,
      // While Postgres is unreachable, fail fast and retry soon: the driver's default backoff grows
      // to 20 s and its connect timeout is 30 s, so requests hung for the whole outage and the app
      // took 8–26 s to notice the database was back (tests/reliability/postgres-outage.spec.ts).
      connect_timeout: 5,
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
      onnotice: () => {},
      connection: { application_name: APPLICATION_NAME },
      // Named prepared statements, each parsed and planned once per connection, and one round trip
      // per statement: for an unnamed statement with parameters the driver first asks Postgres to
      // describe it. drizzle asks for them on every query (patches/drizzle-orm+0.45.4.patch).
      // DATABASE_NO_PREPARE=1 sends unnamed ones instead, e.g. behind PgBouncer in transaction mode.
      prepare: !env.DATABASE_NO_PREPARE,
      // With tracing on, each statement the driver sends is a span of the active trace.
      ...(process.env.OTEL_EXPORTER_OTLP_ENDPOINT ? { debug: (_connection: number, statement: string) => recordStatement(statement) } : {}),
    });
    return { db: drizzle(client, DRIZZLE_CONFIG) as unknown as Db, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = env.PGLITE_DIR ?? path.join(env.dataDir, "pglite");
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  return { db: drizzle(client, DRIZZLE_CONFIG) as unknown as Db, close: () => client.close() };
}

function handle(): Promise<Handle> {
  if (!globalForDb.__goodfundDb) {
    globalForDb.__goodfundDb = open().catch((err) => {
      globalForDb.__goodfundDb = undefined;
      throw err;
    });
  }
  return globalForDb.__goodfundDb;
}

/** The process's database (Postgres with DATABASE_URL, else embedded PGlite). */
export async function getDb(): Promise<Db> {
  return (await handle()).db;
}

/** Close the process's database (scripts and tests; the server keeps it for its lifetime). */
export async function closeDb(): Promise<void> {
  const current = globalForDb.__goodfundDb;
  globalForDb.__goodfundDb = undefined;
  if (current) await (await current).close();
}
