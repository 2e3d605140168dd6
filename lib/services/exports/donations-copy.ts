import { and, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Sql } from "postgres";
import type { Db } from "@/db";
import { donationFilterConditions, type DonationFilter } from "@/db/queries/donations";
import type { Organization } from "@/db/schema";
import { errorFields, log } from "@/lib/log";
import { currencyDecimals } from "@/lib/money";
import { CSV_BOM, csvLine } from "./csv";

/*
 * The donations export on PostgreSQL: Postgres writes each CSV line itself and streams them with
 * `COPY (select …) TO STDOUT (FORMAT binary)`, so Node only copies bytes instead of building an
 * object per row (bench/README.md, "Exports"). Every line is byte for byte what
 * `csvLine(DONATION_CSV_COLUMNS…)` makes of the same row (tests/integration/exports-copy.test.ts
 * compares both over hostile strings): the same formula guard, quoting, decimals per currency,
 * millisecond ISO timestamps (truncated, as a JS Date does), `true`/`false`, empty nulls and
 * CRLF. Binary COPY because its framing carries each line's bytes untouched (text COPY would
 * escape the CR/LF inside them). One statement, so one snapshot for the whole download; the rows
 * and their order are those of the list's filters (`donationFilterConditions`), newest first.
 */

const dialect = new PgDialect({ casing: "snake_case" });

/** A SQL string literal (standard_conforming_strings is on: only `'` needs doubling). */
function literal(v: unknown): string {
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v !== "string") throw new Error(`cannot inline a ${typeof v} in COPY`);
  if (v.includes("\0")) throw new Error("cannot inline a NUL character");
  return `'${v.replace(/'/g, "''")}'`;
}

/** Drizzle SQL with its parameters written in as literals: COPY takes no bind parameters. */
export function inlineSql(query: SQL): string {
  const { sql, params } = dialect.sqlToQuery(query);
  return sql.replace(/\$(\d+)/g, (_, i: string) => literal(params[Number(i) - 1]));
}

/**
 * csvField of a text value: formula guard (`'` before = + - @ tab CR), then quoting when needed;
 * null → empty. One regular expression settles the common value that needs neither.
 */
const text = (e: string) => {
  const g = `(case when left(${e}, 1) in ('=', '+', '-', '@', E'\\t', E'\\r') then '''' || ${e} else ${e} end)`;
  const slow = `(case when strpos(${g}, '"') > 0 or strpos(${g}, ',') > 0 or strpos(${g}, E'\\r') > 0 or strpos(${g}, E'\\n') > 0
    then '"' || replace(${g}, '"', '""') || '"' else ${g} end)`;
  return `(case when ${e} is null then '' when ${e} ~ E'^[-=+@\\t\\r]|[",\\r\\n]' then ${slow} else ${e} end)`;
};
/**
 * A value that prints without quotes or guard (integers, booleans, enum labels, our own IDs, which
 * are `prefix_` and letters and digits, and the three-letter currency); null → empty. Cheaper than
 * `text`, whose regular expression per cell is most of Postgres's work on a large export.
 */
const plain = (e: string) => `coalesce((${e})::text, '')`;
/** Date#toISOString(): UTC, milliseconds truncated. */
const isoTime = (e: string) => `coalesce(to_char(${e} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;

/**
 * The decimals of a row's currency (as `currencyDecimals` says): the organization's own currency,
 * nearly every row, settles with one comparison; only another falls through to the CASE over
 * every currency whose minor unit is not 2 decimals, which would otherwise run for every money
 * cell (bench/README.md, "Exports").
 */
function decimalsCase(currencyCol: string, orgCurrency: string): string {
  const codes = new Set<string>([orgCurrency.toUpperCase()]);
  try {
    for (const c of Intl.supportedValuesOf("currency")) codes.add(c);
  } catch {
    // an ICU without the list: the organization's own currency is still right
  }
  const arms = [...codes]
    .map((c) => [c, currencyDecimals(c)] as const)
    .filter(([c, d]) => d !== 2 && /^[A-Z]{3}$/.test(c))
    .map(([c, d]) => `when '${c}' then ${d}`);
  const others = arms.length ? `(case upper(${currencyCol}) ${arms.join(" ")} else 2 end)` : "2";
  return `(case when ${currencyCol} = ${literal(orgCurrency)} then ${currencyDecimals(orgCurrency)} else ${others} end)`;
}

/**
 * minorUnitsToDecimal(amount, currency), exactly: an integer times 0.01 is an exact numeric with
 * two decimals ("-0.05", "0.00", "172.67"), and likewise for 3 and 4.
 */
function money(amount: string, decimals: string): string {
  const n = `(${amount})::bigint`;
  return `(case ${decimals} when 0 then ${n}::text when 3 then (${n} * 0.001)::text when 4 then (${n} * 0.0001)::text else (${n} * 0.01)::text end)`;
}

/** The SELECT of one CSV line per donation, in DONATION_CSV_COLUMNS' order, for `COPY (…) TO STDOUT`. */
export function donationCsvLinesQuery(org: Pick<Organization, "id" | "currency">, filter: DonationFilter): string {
  const d = (c: string) => `"donations"."${c}"`;
  const dec = decimalsCase(d("currency"), org.currency);
  const dedication = (k: string) => `(${d("dedication")} ->> '${k}')`;
  const cells = [
    plain(d("id")),
    isoTime(d("created_at")),
    isoTime(d("succeeded_at")),
    plain(d("status")),
    money(d("amount"), dec),
    plain(d("amount")),
    plain(d("currency")),
    money(d("fee_cents"), dec),
    plain(d("fee_cents")),
    money(d("matched_amount_cents"), dec),
    plain(d("matched_amount_cents")),
    // shownEmail: an erased donor's placeholder address is exported empty (checked once, outside
    // `text`, which evaluates its argument several times).
    `(case when ${d("email")} ~* '^erased\\+[^@\\s]+@invalid$' then '' else ${text(d("email"))} end)`,
    text(d("first_name")),
    text(d("last_name")),
    plain(d("anonymous")),
    plain(d("campaign_id")),
    text(`"campaigns"."title"`),
    plain(d("donor_id")),
    plain(d("recurring_interval")),
    plain(d("recurring_plan_id")),
    plain(d("is_renewal")),
    plain(d("tickets")),
    plain(d("cover_fees")),
    text(d("message")),
    text(dedication("type")),
    text(dedication("honoreeName")),
    text(dedication("notifyEmail")),
    text(dedication("message")),
    text(d("payment_intent_id")),
    text(d("failure_reason")),
    text(d("dispute_reason")),
    isoTime(d("updated_at")),
    plain(d("source")),
    plain(d("method")),
    text(d("reference")),
    text(d("receipt_number")),
    plain(d("upsell")),
  ];
  const where = inlineSql(and(...donationFilterConditions(org.id, filter))!);
  return `select ${cells.join(" || ',' || ")} || E'\\r\\n'
    from "donations" inner join "campaigns" on "campaigns"."id" = "donations"."campaign_id"
    where ${where}
    order by "donations"."created_at" desc, "donations"."id" desc`;
}

/**
 * Settings for the export's one statement, as `SET LOCAL`s in front of it: one simple query is one
 * implicit transaction, so they end with it (also behind PgBouncer in transaction mode).
 * - No JIT: compiling the line expression (32 cells) would hold up the first row, in every
 *   parallel worker, for longer than it saves (bench/README.md, "Exports").
 * - Without a campaign filter, the rows come in the order of the organization's created-order index
 *   (`from`/`to` are a range of it), so the first line leaves at once and nothing is sorted: a sort
 *   would format every line and sort them all before sending the first. A campaign filter keeps the
 *   planner's choice: its own index and a small sort can beat walking the whole organization.
 */
export function copySettings(filter: DonationFilter): string {
  return filter.campaignId ? "set local jit = off;" : "set local jit = off; set local enable_sort = off;";
}

/** The postgres-js client behind a Drizzle handle, or null on PGlite. */
export function postgresClientOf(db: Db): Sql | null {
  const client = (db as unknown as { $client?: unknown }).$client as Partial<Sql> | undefined;
  return client && typeof client.unsafe === "function" && typeof client.reserve === "function" ? (client as Sql) : null;
}

/** About how many bytes of lines each chunk of the answer carries. */
const CHUNK_BYTES = 64 * 1024;

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");

/**
 * Reads a binary COPY of one text column and hands on each row's bytes, chunk by chunk: a
 * 19-byte header (signature, flags, extension length + extension), then per row a 16-bit field
 * count (-1 ends the data), a 32-bit length and the bytes.
 */
export class BinaryCopyLines {
  private buf: Buffer = Buffer.alloc(0);
  private headerDone = false;
  done = false;

  /** The row bytes complete in `chunk` (with what was left over before it), concatenated. */
  push(chunk: Buffer): Buffer {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Buffer[] = [];
    let at = 0;
    if (!this.headerDone) {
      if (this.buf.length < 19) return Buffer.alloc(0);
      if (!this.buf.subarray(0, 11).equals(SIGNATURE)) throw new Error("not a binary COPY stream");
      const ext = this.buf.readUInt32BE(15);
      if (this.buf.length < 19 + ext) return Buffer.alloc(0);
      at = 19 + ext;
      this.headerDone = true;
    }
    while (!this.done && at + 2 <= this.buf.length) {
      const fields = this.buf.readInt16BE(at);
      if (fields === -1) {
        this.done = true;
        at += 2;
        break;
      }
      if (fields !== 1) throw new Error(`binary COPY row with ${fields} fields`);
      if (at + 6 > this.buf.length) break;
      const len = this.buf.readInt32BE(at + 2);
      if (len < 0) throw new Error("binary COPY row with a null line");
      if (at + 6 + len > this.buf.length) break;
      out.push(this.buf.subarray(at + 6, at + 6 + len));
      at += 6 + len;
    }
    this.buf = this.buf.subarray(at);
    return out.length === 1 ? out[0] : Buffer.concat(out);
  }
}

/**
 * The CSV body from `COPY … TO STDOUT`: the BOM and header first, then Postgres's lines as the
 * reader takes them (the driver's stream pauses while the reader does not read, so memory stays
 * flat). The COPY is started before answering, so a failure to start it is still a JSON error.
 */
export async function copyDonationsCsv(
  client: Sql,
  org: Pick<Organization, "id" | "currency">,
  filter: DonationFilter,
  headers: string[],
): Promise<ReadableStream<Uint8Array>> {
  const settings = copySettings(filter);
  const query = client.unsafe(`${settings} copy (${donationCsvLinesQuery(org, filter)}) to stdout with (format binary)`);
  // `.readable()` runs it as a simple query (no named statement), on a connection of the pool
  // held until the COPY ends.
  const source = await query.readable();
  // postgres-js 3.4 pauses its socket when the stream's buffer is full and resumes it from the
  // stream's read(); when the last CopyData filled the buffer, the stream ends before read() is
  // called again and the socket stays paused, the rest of the answer (ReadyForQuery) unread, the
  // connection lost to the pool. Calling read() once more after the end resumes it.
  const resumeSocket = () => (source as unknown as { _read?: (n: number) => void })._read?.(0);
  source.once("end", resumeSocket);
  source.once("close", resumeSocket);
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const lines = new BinaryCopyLines();
  // The header goes out with the first rows, as the batch writer sends it.
  const pending: Buffer[] = [Buffer.from(CSV_BOM + csvLine(headers))];
  let pendingBytes = 0;
  const flush = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const out = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    pending.length = 0;
    pendingBytes = 0;
    controller.enqueue(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const { value, done } = await iterator.next();
            if (done) {
              if (!lines.done) throw new Error("COPY ended before its trailer");
              if (pending.length) flush(controller);
              controller.close();
              return;
            }
            const bytes = lines.push(value);
            if (bytes.length > 0) {
              pending.push(bytes);
              pendingBytes += bytes.length;
            }
            // Postgres sends a message per line: the answer goes out in chunks of about 64 KiB,
            // not a write per line.
            if (pendingBytes >= CHUNK_BYTES) {
              flush(controller);
              return;
            }
          }
        } catch (err) {
          log.error("csv export failed mid-stream", { export: "donations", ...errorFields(err) });
          controller.error(err);
        }
      },
      async cancel() {
        // The reader went away: stop Postgres, then read what it sends to the end, so the
        // connection goes back to the pool in a clean state. postgres-js's `query.cancel()` does
        // nothing once a COPY has handed over its stream (the query counts as done), so the
        // cancel is asked of Postgres by the backend's pid. It is asked first: while nothing is
        // read, a COPY larger than the socket's buffers is stuck writing and cannot end and free
        // its connection for another query the cancel could hit; Postgres acts on it as soon as
        // that write completes. Without it the COPY ran on over rows nobody reads, and while the
        // socket stayed paused it never ended: a pool connection, two parallel workers and an
        // open snapshot (which keeps VACUUM from pruning any updated row) held for good.
        // Only a backend that is running an export: behind PgBouncer the pid the driver knows is
        // PgBouncer's own, which names no backend (or, by chance, another one); then the drain
        // below reads the COPY to its end instead.
        const pid = (query as unknown as { state?: { pid?: unknown } }).state?.pid;
        if (typeof pid === "number") {
          await client`
            select pg_cancel_backend(pid) from pg_stat_activity
            where pid = ${pid} and state = 'active' and starts_with(query, ${settings})`.catch(() => {});
        }
        // The async iterator reads through a 'readable' listener, and while one is attached
        // `resume()` does nothing: drop it to let the rest flow (and be thrown away).
        source.removeAllListeners("readable");
        source.on("data", () => {});
        source.on("error", () => {});
        source.resume();
      },
    },
    { highWaterMark: 0 },
  );
}
