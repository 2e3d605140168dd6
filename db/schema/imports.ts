import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { belongsTo, timestamps, timestamptz } from "./columns";
import type { DonationMethod } from "./donations";
import { organizations } from "./organizations";

export const importStatusEnum = pgEnum("import_status", ["READY", "FAILED", "IMPORTING", "DONE", "UNDONE"]);
export const importPresetEnum = pgEnum("import_preset", ["goodfund", "givebutter", "donorbox", "stripe"]);
export type ImportStatus = (typeof importStatusEnum.enumValues)[number];
export type ImportPreset = (typeof importPresetEnum.enumValues)[number];

/** One refusal of one row: row numbers count the header as row 1. */
/** A row's problem; `line` is the row as read, written back as one CSV line (cut at MAX_LINE_CHARS), for the bad-rows file. */
export type ImportRowError = { row: number; field: string; code: string; message: string; line?: string };

/** A row as it will be applied (amount in cents, date as an ISO instant, campaign resolved). */
export type ImportRowData = {
  email: string;
  firstName: string | null;
  lastName: string | null;
  amountCents: number;
  receivedAt: string;
  campaignId: string;
  method: DonationMethod;
  reference: string | null;
  externalId: string | null;
};

/**
 * A CSV file checked for an organization and, once committed, applied in the background: the
 * worker takes it with `FOR UPDATE SKIP LOCKED`, applies the rows after `cursor` in batches and
 * moves `cursor` in each batch's transaction, so a restart resumes where the last commit left off.
 */
export const imports = pgTable(
  "imports",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    preset: importPresetEnum().notNull(),
    status: importStatusEnum().notNull(),
    /** Data rows read (the header not counted). */
    rows: integer().notNull().default(0),
    valid: integer().notNull().default(0),
    invalid: integer().notNull().default(0),
    duplicates: integer().notNull().default(0),
    processed: integer().notNull().default(0),
    /** Per-row errors (the first MAX_STORED_ERRORS; `invalid` counts them all). */
    errors: jsonb().$type<ImportRowError[]>().notNull().default([]),
    /** The first rows as read, for the preview. */
    preview: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
    /** The last row number applied (0 before the first batch). */
    cursor: integer().notNull().default(0),
    createdByUserId: text(),
    ...timestamps(),
    committedAt: timestamptz(),
    completedAt: timestamptz(),
    undoneAt: timestamptz(),
  },
  (t) => [index("imports_org_created_idx").on(t.orgId, t.createdAt), index("imports_status_idx").on(t.status, t.committedAt)],
);

/** The valid rows of an import, in file order, as they will be applied. */
export const importRows = pgTable(
  "import_rows",
  {
    importId: belongsTo(() => imports.id),
    row: integer().notNull(),
    data: jsonb().$type<ImportRowData>().notNull(),
    /** Its external ID was already imported (or repeats an earlier row) when the file was checked. */
    duplicate: boolean().notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row] })],
);

export type Import = typeof imports.$inferSelect;
export type ImportRow = typeof importRows.$inferSelect;
