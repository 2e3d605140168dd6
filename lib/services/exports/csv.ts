import { errorFields, log } from "@/lib/log";
import { currencyDecimals } from "@/lib/money";

/**
 * The CSV writer of the exports (RFC 4180, written for spreadsheets as much as for parsers):
 *
 * - UTF-8 with a byte-order mark, so Excel reads accented names and emoji as UTF-8;
 * - CRLF line endings; a header row first;
 * - a field is quoted when it contains a comma, a double quote, CR or LF, and inner quotes are
 *   doubled (`He said "hi"` → `"He said ""hi"""`);
 * - formula injection: a text cell starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with a
 *   single quote (`=HYPERLINK(…)` → `'=HYPERLINK(…)`), so a spreadsheet shows it as text instead of
 *   evaluating it (OWASP's "CSV injection" advice). Only text can start that way: numbers, times
 *   and booleans are written by us and left as they are;
 * - null is an empty field; booleans are `true`/`false`.
 */
export type Cell = string | number | boolean | null | undefined;

export type CsvColumn<T> = { header: string; value: (row: T) => Cell };

export const CSV_BOM = "\uFEFF";
const CRLF = "\r\n";
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text cell that a spreadsheet would evaluate gets a leading `'`. */
export function neutralizeFormula(s: string): string {
  return FORMULA_START.test(s) ? `'${s}` : s;
}

export function csvField(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return String(value);
  const text = neutralizeFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Cell[]): string {
  return cells.map(csvField).join(",") + CRLF;
}

/**
 * Integer minor units as a decimal string in the currency's own precision, exactly (no floating
 * point): 1234 usd → "12.34", 5 usd → "0.05", 5000 jpy → "5000".
 */
export function minorUnitsToDecimal(amount: number, currency: string): string {
  const digits = currencyDecimals(currency);
  const sign = amount < 0 ? "-" : "";
  const abs = String(Math.abs(Math.trunc(amount)));
  if (digits === 0) return sign + abs;
  const padded = abs.padStart(digits + 1, "0");
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

export type Batch<T, C> = { rows: T[]; nextCursor: C | null };

/**
 * A CSV body streamed batch by batch: the BOM, the header and `first` (already fetched, so a
 * failure before anything is sent is still a normal error response), then `fetchNext(cursor)`
 * only when the reader asks for more (high-water mark 0). One batch is in memory at a time, so an
 * export of any size runs in constant memory; a reader that goes away stops the fetching.
 * A failure after the first bytes can only abort the stream (the status is already sent); it is logged.
 */
export function csvStream<T, C>(
  columns: CsvColumn<T>[],
  first: Batch<T, C>,
  fetchNext: (cursor: C) => Promise<Batch<T, C>>,
  what: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: Batch<T, C> | null = first;
  let cursor: C | null = null;
  let header = CSV_BOM + csvLine(columns.map((c) => c.header));
  let canceled = false;
  const render = (rows: T[]) => rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join("");

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          let batch: Batch<T, C>;
          if (pending) {
            batch = pending;
            pending = null;
          } else if (cursor !== null) {
            batch = await fetchNext(cursor);
          } else {
            controller.close();
            return;
          }
          if (canceled) return;
          controller.enqueue(encoder.encode(header + render(batch.rows)));
          header = "";
          cursor = batch.nextCursor;
          if (cursor === null) controller.close();
        } catch (err) {
          log.error("csv export failed mid-stream", { export: what, ...errorFields(err) });
          controller.error(err);
        }
      },
      cancel() {
        canceled = true;
        cursor = null;
      },
    },
    { highWaterMark: 0 },
  );
}

/** `<kind>-<org slug>-<YYYY-MM-DD>.csv` (UTC date); slugs are `[a-z0-9-]`, safe in the header as they are. */
export function exportFilename(kind: string, orgSlug: string, now = new Date()): string {
  return `${kind}-${orgSlug}-${now.toISOString().slice(0, 10)}.csv`;
}

export function csvResponse(body: ReadableStream<Uint8Array>, filename: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      // Donor data: never kept by shared caches.
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
