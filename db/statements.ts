import { fillPlaceholders, getTableColumns, Param, SQL, sql, StringChunk, type Column, type Table } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import type { Db, DbOrTx } from "@/db";
import { driverOf } from "./transaction";

/**
 * Statements built once per process and run on whichever database or transaction is given, so
 * each runs in the caller's transaction and keeps its atomicity.
 *
 * A statement is written as a drizzle query (a builder, or `db.execute(sql\`…\`)`) with its values
 * as `sql.placeholder("name")`. The first call renders it with drizzle's `toSQL()` (`getQuery()`
 * for raw SQL): its text and parameter list. Every call then fills the placeholders
 * (`fillPlaceholders`, which applies each column's encoder) and runs that text on the database or
 * transaction it is given: on Postgres straight on its postgres.js handle (the pool's, or that of a
 * transaction opened with db/transaction.ts), otherwise with drizzle's `execute`, which renders
 * the query again. Rows come back as the driver answers them and are mapped to the table's columns
 * (`mapFromDriverValue`), as drizzle maps a query's rows. Building and rendering the query is what
 * cost the CPU; this keeps only the parameters and the mapping per call.
 *
 * Whether Postgres gets a named prepared statement is the driver's choice (db/index.ts): postgres.js
 * prepares each statement text once per connection unless `DATABASE_NO_PREPARE` is set. PGlite runs
 * it as any other query.
 *
 * A builder must not depend on the call's values except through placeholders: `variants` keys the
 * few shapes a statement has.
 */

export type Values = Record<string, unknown>;
export type Statement<R, V extends Values = Values> = (db: DbOrTx, values: V) => Promise<R>;
export type Row = Record<string, unknown>;

type Rendered = { sql: string; params: unknown[] };
/** A drizzle query that renders without running: builders (`toSQL`) and `db.execute` (`getQuery`). */
type Renderable = { toSQL(): Rendered } | { getQuery(): Rendered };

type Compiled = { text: string; parts: StringChunk[]; params: unknown[] };

function compile(query: Renderable): Compiled {
  const { sql: text, params } = "toSQL" in query ? query.toSQL() : query.getQuery();
  // drizzle numbers parameters $1…$n in the order of `params`, each once.
  const parts = text.split(/\$\d+/);
  if (parts.length !== params.length + 1)
    throw new Error(`Statement has ${params.length} parameters but ${parts.length - 1} markers: ${text}`);
  return { text, parts: parts.map((p) => new StringChunk(p)), params };
}

/**
 * Runs the compiled text with the call's values: on Postgres straight on the postgres.js handle
 * (as drizzle's postgres-js session sends a query: `unsafe(text, params, { prepare: true })`, the
 * client's `prepare` option deciding), elsewhere (PGlite) through drizzle's `execute`. Sent when
 * called either way.
 */
function run(db: DbOrTx, c: Compiled, values: Values): Promise<unknown> {
  const driver = driverOf(db);
  if (driver) return driver.unsafe(c.text, fillPlaceholders(c.params, values) as never[], { prepare: true });
  return db.execute(bind(c, values));
}

/** The compiled text with the call's values, as a query `execute` runs. */
function bind(c: Compiled, values: Values): SQL {
  const filled = fillPlaceholders(c.params, values);
  const chunks: (StringChunk | Param)[] = [c.parts[0]];
  for (let i = 0; i < filled.length; i++) chunks.push(new Param(filled[i]), c.parts[i + 1]);
  return new SQL(chunks);
}

/** The rows of an `execute` result, whichever driver answered it (postgres: an array; PGlite: `{ rows }`). */
export function rowsOf<T = Row>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

type Decoder = { key: string; column: Column };

// The app's databases name columns in snake_case (db/index.ts: `casing: "snake_case"`) unless a
// column gives its own name.
const decoders = new WeakMap<Table, Map<string, Decoder>>();
function decodersOf(table: Table): Map<string, Decoder> {
  let map = decoders.get(table);
  if (!map) {
    map = new Map();
    for (const [key, column] of Object.entries(getTableColumns(table)) as [string, Column][]) {
      map.set(column.keyAsName ? toSnakeCase(column.name) : column.name, { key, column });
    }
    decoders.set(table, map);
  }
  return map;
}

/** A row of `table`'s columns as the driver answered it, with the columns' keys and JS values. */
function decode(map: Map<string, Decoder>, raw: Row): Row {
  const out: Row = {};
  for (const name in raw) {
    const d = map.get(name);
    const value = raw[name];
    if (d) out[d.key] = value === null ? null : d.column.mapFromDriverValue(value);
    else out[name] = value;
  }
  return out;
}

/**
 * A builder's statement over one table, built on first use: `build` gets a database to start the
 * builder from and must give its values as `sql.placeholder(…)`. It answers what the builder would,
 * provided the builder selects or returns that table's columns under their own keys.
 *
 *   const byId = statement(donations, (db) => db.select().from(donations).where(eq(donations.id, sql.placeholder("id"))));
 *   const [d] = await byId(tx, { id });
 */
export function statement<B extends { toSQL(): Rendered } & PromiseLike<unknown>, V extends Values = Values>(
  table: Table,
  build: (db: DbOrTx) => B,
): Statement<Awaited<B>, V> {
  let compiled: Compiled | undefined;
  const map = decodersOf(table);
  return (db, values) => {
    compiled ??= compile(build(db));
    return run(db, compiled, values).then((result) => rowsOf(result).map((r) => decode(map, r))) as Promise<Awaited<B>>;
  };
}

/**
 * A raw SQL statement (`sql\`…\`` with `sql.placeholder(…)` for its values), rendered once. It
 * answers the driver's rows, keyed by the names the SQL gives its columns.
 */
export function sqlStatement<V extends Values = Values>(query: SQL): Statement<Row[], V> {
  let compiled: Compiled | undefined;
  // Sent when called, like `statement`'s: statements issued together reach the connection in the
  // order they were called (no await before the send).
  return (db, values) => {
    compiled ??= compile(db.execute(query));
    return run(db, compiled, values).then(rowsOf);
  };
}

/**
 * A placeholder for `.update(t).set({ column: setTo("name") })`. drizzle takes a placeholder there
 * (wrapped, like any value, in the column's parameter, so the column's encoder applies) but its
 * types only say so for inserts.
 */
export const setTo = (name: string): SQL => sql.placeholder(name) as unknown as SQL;

/** `{ column: setTo(column) }` for each of `keys`. */
export const setAll = (keys: readonly string[]): Record<string, SQL> => Object.fromEntries(keys.map((k) => [k, setTo(k)]));

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

type Preparable = { prepare(name: string): { execute(values?: Values): Promise<unknown> } };
type PreparedResult<B extends Preparable> = Awaited<ReturnType<ReturnType<B["prepare"]>["execute"]>>;

/**
 * A statement that runs on the database itself, never in a transaction: drizzle's own prepared
 * query (`.prepare(name)`), made once per database.
 */
export function poolStatement<B extends Preparable, V extends Values = Values>(
  name: string,
  build: (db: Db) => B,
): (db: Db, values: V) => Promise<PreparedResult<B>> {
  const made = new WeakMap<Db, ReturnType<B["prepare"]>>();
  return (db, values) => {
    let p = made.get(db);
    if (!p) made.set(db, (p = build(db).prepare(name) as ReturnType<B["prepare"]>));
    return p.execute(values) as Promise<PreparedResult<B>>;
  };
}
