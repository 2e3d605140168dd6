import { sql, type SQL } from "drizzle-orm";
import { PgDialect, type PgSession } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db";

/**
 * Statements built once per process and run on whichever database or transaction is given.
 *
 * drizzle's `.prepare(name)` builds a query's SQL, parameter list and row mapping once, but the
 * prepared query it answers is bound to the session it was made on: one prepared on the pool runs
 * outside any `db.transaction(tx => …)`, and one prepared on `tx` dies with it. So this records
 * what `.prepare(name)` hands to the session (`session.prepareQuery(query, fields, …)`) the first
 * time, and replays that on the session of the database or transaction each call is given:
 * making a prepared query object from a built query costs almost nothing, building it is what
 * dominated the webhook's CPU. Every statement therefore runs in the caller's transaction and
 * keeps its atomicity.
 *
 * Whether Postgres itself gets a named prepared statement stays db/index.ts's choice: the replay
 * passes no name, so the postgres driver prepares it (its per-connection statement cache, keyed by
 * the SQL text) unless `DATABASE_NO_PREPARE` is set, when it sends it unnamed (PgBouncer in
 * transaction mode); the built SQL is cached either way. PGlite runs it as any other query.
 *
 * Values come through `sql.placeholder("name")` in the builder, filled by `execute(values)` with
 * the column's encoder, as drizzle's own prepared queries do. A builder must not depend on the
 * call's values except through placeholders: `variants` keys the few shapes a statement has.
 */

type PrepareArgs = Parameters<PgSession["prepareQuery"]>;
type Recorded = { args: PrepareArgs; joinsNotNullableMap?: unknown };

/** Anything drizzle can `.prepare()`: a select, insert, update or delete builder. */
type Preparable = { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown> } };
type ResultOf<B extends Preparable> = Awaited<ReturnType<ReturnType<B["prepare"]>["execute"]>>;

export type Values = Record<string, unknown>;
export type Statement<R, V extends Values = Values> = (db: DbOrTx, values: V) => Promise<R>;

function record(db: DbOrTx, name: string, build: (db: DbOrTx) => Preparable): Recorded {
  const session = db._.session;
  const original = session.prepareQuery;
  let args: PrepareArgs | undefined;
  // Building is synchronous: nothing else can use this session while its method is shadowed.
  Object.defineProperty(session, "prepareQuery", {
    configurable: true,
    value(this: PgSession, ...a: PrepareArgs) {
      args = a;
      return original.apply(this, a);
    },
  });
  let prepared: unknown;
  try {
    prepared = build(db).prepare(name);
  } finally {
    delete (session as unknown as Record<string, unknown>).prepareQuery;
  }
  if (!args) throw new Error(`Statement ${name} was not prepared through its database`);
  return { args, joinsNotNullableMap: (prepared as { joinsNotNullableMap?: unknown }).joinsNotNullableMap };
}

function run<R>(db: DbOrTx, recorded: Recorded, values: Values): Promise<R> {
  const [query, fields, , arrayMode, mapper, metadata, cacheConfig] = recorded.args;
  const q = db._.session.prepareQuery(query, fields, undefined, arrayMode, mapper, metadata, cacheConfig);
  if (recorded.joinsNotNullableMap) (q as unknown as { joinsNotNullableMap: unknown }).joinsNotNullableMap = recorded.joinsNotNullableMap;
  return q.execute(values) as Promise<R>;
}

/**
 * A query builder's statement, built on first use: `build` gets a database to start the builder
 * from and must give its values as `sql.placeholder(…)`.
 *
 *   const byId = prepared("donation_by_id", (db) => db.select().from(donations).where(eq(donations.id, sql.placeholder("id"))));
 *   const [d] = await byId(tx, { id });
 */
export function prepared<B extends Preparable, V extends Values = Values>(
  name: string,
  build: (db: DbOrTx) => B,
): Statement<ResultOf<B>, V> {
  let recorded: Recorded | undefined;
  return (db, values) => {
    recorded ??= record(db, name, build);
    return run(db, recorded, values);
  };
}

// The app's databases are made with `casing: "snake_case"` (db/index.ts); raw SQL naming a column
// object must be rendered the same way.
const dialect = new PgDialect({ casing: "snake_case" });

/**
 * A raw SQL statement (`sql\`…\`` with `sql.placeholder(…)` for its values), rendered once. It
 * answers what `db.execute` would: the driver's rows (postgres) or result (PGlite); see rowsOf.
 */
export function preparedSql<V extends Values = Values>(name: string, query: SQL): Statement<unknown, V> {
  let recorded: Recorded | undefined;
  return (db, values) => {
    recorded ??= { args: [dialect.sqlToQuery(query), undefined, name, false] };
    return run(db, recorded, values);
  };
}

/**
 * A placeholder for `.update(t).set({ column: setTo("name") })`. drizzle takes a placeholder there
 * (wrapped, like any value, in the column's parameter, so the column's encoder applies) but its
 * types only say so for inserts.
 */
export const setTo = (name: string): SQL => sql.placeholder(name) as unknown as SQL;

/** The rows of a raw statement's result, whichever driver answered it. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A statement with a few shapes (which optional columns it sets, how many rows it inserts): each
 * shape's key is built once into its own statement.
 */
export function variants<K extends string | number, R, V extends Values = Values>(
  make: (key: K) => Statement<R, V>,
): (key: K) => Statement<R, V> {
  const made = new Map<K, Statement<R, V>>();
  return (key) => {
    let s = made.get(key);
    if (!s) made.set(key, (s = make(key)));
    return s;
  };
}
