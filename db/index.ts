import path from "node:path";
import { mkdirSync } from "node:fs";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { Sql } from "postgres";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { coalescesWritesFor, connectCoalescing } from "./coalescing-socket";
import * as schema from "./schema";
import { getEnv } from "@/lib/env";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type DbOrTx = Db | Tx;

type Handle = { db: Db; close: () => Promise<void> };

// One handle per process, shared through globalThis: Next.js may load this module in several
// bundles (instrumentation, each route), and PGlite must never be opened twice on one directory.
const globalForDb = globalThis as unknown as { __goodfundDb?: Promise<Handle> };

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
      connection: { application_name: "goodfund" },
      // One write per turn of the event loop instead of one per statement (db/coalescing-socket.ts).
      // The driver takes this option but its types don't name it.
      ...((coalescesWritesFor(env.DATABASE_URL) ? { socket: connectCoalescing } : {}) as object),
    });
    const sql = env.DATABASE_NO_PREPARE ? client : preparedByDefault(client);
    return { db: drizzle(sql, { schema, casing: "snake_case" }) as unknown as Db, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = env.PGLITE_DIR ?? path.join(env.dataDir, "pglite");
  if (!dir.startsWith("memory://")) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  return { db: drizzle(client, { schema, casing: "snake_case" }) as unknown as Db, close: () => client.close() };
}

/**
 * drizzle-orm/postgres-js sends every query it was not given a name for with `prepare: false`, and
 * for an unnamed statement with parameters the driver first asks Postgres to describe it, then runs
 * it: two round trips per statement, and a parse and plan each time. This lets the driver prepare
 * them instead (named statements, cached per connection, one round trip, the plan reused). The
 * transaction and savepoint handles the driver passes to drizzle get the same treatment.
 * DATABASE_NO_PREPARE=1 turns it off, e.g. behind PgBouncer in transaction mode.
 */
function preparedByDefault(sql: Sql): Sql {
  return new Proxy(sql, {
    get(target, key) {
      if (key === "unsafe") {
        return (query: string, params?: unknown[], options?: object) =>
          target.unsafe(query, params as never, { ...options, prepare: true });
      }
      if (key === "begin" || key === "savepoint") {
        return (...args: unknown[]) => {
          const run = args.pop() as (inner: Sql) => unknown;
          const original = (target as unknown as Record<string, (...a: unknown[]) => unknown>)[key];
          return original(...args, (inner: Sql) => run(preparedByDefault(inner)));
        };
      }
      return Reflect.get(target, key);
    },
  });
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
