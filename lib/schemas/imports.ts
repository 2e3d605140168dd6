import { z } from "zod";
import type { Import } from "@/db/schema";
import { iso, pageQuery } from "./common";

export const IMPORT_PRESETS = ["goodfund", "givebutter", "donorbox", "stripe"] as const;
export const IMPORT_STATUSES = ["READY", "FAILED", "IMPORTING", "DONE", "UNDONE"] as const;

export const createImportQuery = z
  .object({
    preset: z.enum(IMPORT_PRESETS).meta({ description: "Whose export the file is: Goodfund's own columns, or another platform's export." }),
    campaignId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: "The campaign (ID or slug) of rows whose campaign is empty or not one of this organization's." }),
  })
  .strict();

export const listImportsQuery = z.object(pageQuery).strict();

/** The CSV body's documentation (the handler streams it itself). */
export const importCsvBody = z.string().meta({
  description:
    "The CSV file (at most 20 MiB), `Content-Type: text/csv`. Goodfund preset columns: `email, first_name, last_name, amount, " +
    "date, campaign, method, reference, external_id`; amounts in major units of the organization's currency (`25.00`); dates " +
    "ISO (`2024-03-05`), US (`03/05/2024`) or European (`05.03.2024`).",
  example:
    "email,first_name,last_name,amount,date,campaign,method,reference,external_id\nada@example.org,Ada,Lovelace,25.00,2024-03-05,spring,CHEQUE,1042,legacy-1\n",
});

const rowError = z.object({
  row: z.number().int().meta({ description: "The row's line in the file, the header being row 1." }),
  field: z.string(),
  code: z.string(),
  message: z.string(),
  line: z.string().optional().meta({
    description: "The row as read, written back as one CSV line (at most 2 000 characters): what the bad-rows file lists to fix.",
  }),
});

const previewRow = z.object({
  row: z.number().int(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  amount: z.number().int().nullable().meta({ description: "Cents; null when the row's amount is unreadable." }),
  date: z.string().nullable(),
  campaignId: z.string().nullable(),
  method: z.string().nullable(),
  reference: z.string().nullable(),
  externalId: z.string().nullable(),
  valid: z.boolean(),
});

export const importSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    status: z.enum(IMPORT_STATUSES),
    preset: z.enum(IMPORT_PRESETS),
    rows: z.number().int().meta({ description: "Data rows in the file (the header not counted)." }),
    valid: z.number().int(),
    invalid: z.number().int(),
    duplicates: z.number().int().meta({ description: "Valid rows whose external ID was already imported: skipped." }),
    processed: z.number().int().meta({ description: "Valid rows handled so far by the commit (applied or skipped)." }),
    errors: z.array(rowError).meta({ description: "Per-row errors (the first 1 000)." }),
    preview: z.array(previewRow).meta({ description: "The first 20 rows as they will be read." }),
    createdAt: z.string(),
    committedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    undoneAt: z.string().nullable(),
  })
  .meta({ id: "Import" });

/** An import as the API answers it (the dashboard's Import page reads the same shape). */
export type ImportView = z.output<typeof importSchema>;
/** One of the first rows of a file, as the import will read it. */
export type ImportPreviewRow = z.output<typeof previewRow>;
/** A row's problem: its line in the file (the header is row 1), the field and the code. */
export type ImportRowProblem = z.output<typeof rowError>;

export function serializeImport(i: Import): ImportView {
  return {
    id: i.id,
    orgId: i.orgId,
    status: i.status,
    preset: i.preset,
    rows: i.rows,
    valid: i.valid,
    invalid: i.invalid,
    duplicates: i.duplicates,
    processed: i.processed,
    errors: i.errors,
    preview: i.preview as ImportPreviewRow[],
    createdAt: iso(i.createdAt)!,
    committedAt: iso(i.committedAt),
    completedAt: iso(i.completedAt),
    undoneAt: iso(i.undoneAt),
  };
}
