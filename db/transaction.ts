import type postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { DRIZZLE_CONFIG, type Db, type DbOrTx, type Tx } from "@/db";

/**
 * The postgres.js handle a database or transaction runs on, when it is Postgres: the pool's client
 * (drizzle's documented `db.$client`) or the transaction's own handle, for a transaction opened by
 * `transaction` below. db/statements.ts sends its statements straight to it (`unsafe` with the text
 * drizzle rendered once), instead of having drizzle render each call's query again. PGlite has none.
 */
export function driverOf(db: DbOrTx): postgres.Sql | postgres.TransactionSql | undefined {
  return transactionDrivers.get(db) ?? postgresClient(db);
}

const transactionDrivers = new WeakMap<object, postgres.TransactionSql>();

function postgresClient(db: object): postgres.Sql | undefined {
  const client = (db as { $client?: Partial<postgres.Sql> }).$client;
  return typeof client?.begin === "function" && typeof client.unsafe === "function" ? (client as postgres.Sql) : undefined;
}

/**
 * Runs `fn` in a transaction of `db`, as `db.transaction(fn)` does: committed when `fn` settles,
 * rolled back when it throws. On Postgres the transaction is postgres.js's own (`sql.begin`), with
 * drizzle set up over its handle the way db/index.ts sets it up over the pool, so the hot
 * statements inside it can reach the handle (`driverOf`). What `fn` gets is a drizzle database
 * bound to the transaction, not drizzle's transaction object: no nested `transaction()` (savepoint)
 * and no `rollback()` inside it; throw to roll back.
 */
export async function transaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const client = postgresClient(db);
  if (!client) return db.transaction(fn);
  const result = await client.begin(async (handle) => {
    // drizzle reads the client's options (its type parsers) when it is set up; a transaction's
    // handle shares the pool's.
    const tx = drizzle({ client: Object.assign(handle, { options: client.options }) as unknown as postgres.Sql, ...DRIZZLE_CONFIG });
    transactionDrivers.set(tx, handle);
    // Wrapped: postgres.js's begin would wait on each item of an array it is given back.
    return { value: await fn(tx as unknown as Tx) };
  });
  return result.value;
}
