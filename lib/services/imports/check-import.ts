import { Readable, Transform } from "node:stream";
import { parse } from "csv-parse";
import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { campaignNames, insertImportRows, knownExternalIds } from "@/db/queries/imports";
import { imports, type Import, type ImportPreset, type ImportRowData, type ImportRowError, type Organization } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { locateColumns, PRESETS } from "./presets";
import { readRow } from "./read-row";
import type { ImportPreviewRow } from "@/lib/schemas/imports";

/** The largest file an import takes. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Rows shown as read before committing. */
export const PREVIEW_ROWS = 20;
/** Per-row errors kept on the import (`invalid` counts every bad row). */
export const MAX_STORED_ERRORS = 1000;
/** A bad row's stored line is cut here (the stored errors stay about 2 MB at most). */
const MAX_LINE_CHARS = 2000;

/** A CSV cell, quoted when it must be (RFC 4180). */
const csvCell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** Rows checked and stored per round trip. */
const CHUNK = 1000;

/** A file that is not a CSV file this preset can read: the import is FAILED and the request answers 400. */
export class UnreadableFile extends Error {}

/** The file is over MAX_IMPORT_BYTES (the request answers 413); nothing is recorded. */
export class FileTooLarge extends Error {}

/** Counts the bytes going through and refuses the file past the limit, without reading the rest. */
function byteLimit(limit: number): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.byteLength;
      if (size > limit) return done(new FileTooLarge("Request body too large (limit 20 MiB)"));
      // A NUL byte never appears in a text file: this is not CSV.
      if (chunk.includes(0)) return done(new UnreadableFile("The file is not a CSV text file"));
      done(null, chunk);
    },
  });
}

type Checked = { rows: number; valid: number; invalid: number; duplicates: number; errors: ImportRowError[]; preview: ImportPreviewRow[] };

/**
 * Reads a CSV file as it streams in (csv-parse), row by row in constant memory: each row through
 * the preset's columns into a gift (readRow), its problems recorded per row and field, its
 * external ID checked against the organization's gifts and the rows before it. Valid rows are
 * stored for the commit, a chunk at a time, in one transaction with the import (READY). A file
 * that cannot be read as CSV, or lacks the preset's required columns, leaves a FAILED import and
 * throws UnreadableFile. Nothing is applied here.
 */
export async function checkImport(
  db: Db,
  org: Organization,
  input: { preset: ImportPreset; body: ReadableStream<Uint8Array> | null; defaultCampaign?: string; userId: string | null },
): Promise<Import> {
  const preset = PRESETS[input.preset];
  const id = newId("imp");
  const base = { id, orgId: org.id, preset: input.preset, createdByUserId: input.userId };
  const campaigns = await campaignNames(db, org.id);
  const bySlug = new Map(campaigns.map((c) => [c.slug.toLowerCase(), c.id]));
  const byTitle = new Map(campaigns.map((c) => [c.title.trim().toLowerCase(), c.id]));
  const byId = new Map(campaigns.map((c) => [c.id, c.id]));
  const resolve = (name: string) => {
    const key = name.trim().toLowerCase();
    return bySlug.get(key) ?? byId.get(name.trim()) ?? (input.preset === "goodfund" ? undefined : byTitle.get(key));
  };
  let defaultCampaignId: string | undefined;
  if (input.defaultCampaign) {
    defaultCampaignId = bySlug.get(input.defaultCampaign.toLowerCase()) ?? byId.get(input.defaultCampaign);
    if (!defaultCampaignId) throw new AppError("campaign_not_found", "Campaign not found");
  }

  try {
    const checked = await db.transaction(async (tx) => {
      await tx.insert(imports).values({ ...base, status: "READY" });
      const out: Checked = { rows: 0, valid: 0, invalid: 0, duplicates: 0, errors: [], preview: [] };
      const seen = new Set<string>();
      let chunk: { row: number; data: ImportRowData }[] = [];
      const flush = async () => {
        const ids = chunk.map((r) => r.data.externalId).filter((x): x is string => x !== null);
        const known = await knownExternalIds(tx, org.id, ids);
        const rows = chunk.map((r) => {
          const ext = r.data.externalId;
          const duplicate = ext !== null && (known.has(ext) || seen.has(ext));
          if (ext !== null) seen.add(ext);
          if (duplicate) out.duplicates++;
          return { ...r, duplicate };
        });
        await insertImportRows(tx, id, rows);
        chunk = [];
      };

      if (!input.body) throw new UnreadableFile("The file is empty");
      const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 64 * 1024 });
      const source = Readable.fromWeb(input.body as import("node:stream/web").ReadableStream<Uint8Array>);
      const limited = source.pipe(byteLimit(MAX_IMPORT_BYTES));
      limited.on("error", (err) => parser.destroy(err));
      limited.pipe(parser);

      let at: ReturnType<typeof locateColumns>["at"] | undefined;
      let row = 1;
      try {
        for await (const cells of parser as AsyncIterable<string[]>) {
          if (!at) {
            const located = locateColumns(preset, cells);
            if (located.missing.length > 0) {
              throw new UnreadableFile(`The file has no ${located.missing.map((m) => `"${m}"`).join(", ")} column for this preset`);
            }
            at = located.at;
            continue;
          }
          row++;
          out.rows++;
          const read = readRow(preset, at, cells, row, { currency: org.currency, campaign: resolve, defaultCampaignId });
          if (out.preview.length < PREVIEW_ROWS) out.preview.push(previewOf(row, read.data, cells, at));
          if (read.data) {
            out.valid++;
            chunk.push({ row, data: read.data });
            if (chunk.length >= CHUNK) await flush();
          } else {
            out.invalid++;
            const line = cells.map(csvCell).join(",").slice(0, MAX_LINE_CHARS);
            for (const e of read.errors) if (out.errors.length < MAX_STORED_ERRORS) out.errors.push({ ...e, line });
          }
        }
      } catch (err) {
        if (err instanceof AppError || err instanceof UnreadableFile || err instanceof FileTooLarge) throw err;
        // csv-parse's own refusals (an unclosed quote, a record over the size limit), a body cut short.
        throw new UnreadableFile(
          `The file is not readable CSV: ${err instanceof Error ? err.message.split("\n")[0].slice(0, 200) : "unknown error"}`,
        );
      }
      if (!at) throw new UnreadableFile("The file is empty");
      await flush();
      const [done] = await tx
        .update(imports)
        .set({ ...out, updatedAt: new Date() })
        .where(eq(imports.id, id))
        .returning();
      return done;
    });
    return checked;
  } catch (err) {
    if (err instanceof UnreadableFile) {
      await db.insert(imports).values({
        ...base,
        status: "FAILED",
        errors: [{ row: 1, field: "file", code: "unreadable_file", message: err.message }],
      });
    }
    throw err;
  }
}

function previewOf(row: number, data: ImportRowData | undefined, cells: string[], at: Partial<Record<string, number>>): ImportPreviewRow {
  if (data) {
    return {
      row,
      email: data.email,
      firstName: data.firstName,
      lastName: data.lastName,
      amount: data.amountCents,
      date: data.receivedAt,
      campaignId: data.campaignId,
      method: data.method,
      reference: data.reference,
      externalId: data.externalId,
      valid: true,
    };
  }
  const raw = (f: string) => {
    const i = at[f];
    return i === undefined ? null : (cells[i] ?? "").trim() || null;
  };
  return {
    row,
    email: raw("email"),
    firstName: raw("firstName"),
    lastName: raw("lastName"),
    amount: null,
    date: raw("date"),
    campaignId: null,
    method: raw("method"),
    reference: raw("reference"),
    externalId: raw("externalId"),
    valid: false,
  };
}
