import { z } from "zod";
import { donorOrgParam } from "./donor-account";

/** The first year statements can be asked for; the last is the current one (UTC). */
export const FIRST_STATEMENT_YEAR = 2000;

const statementYear = () =>
  z
    .number()
    .int()
    .min(FIRST_STATEMENT_YEAR)
    .refine((y) => y <= new Date().getUTCFullYear(), { message: "Must not be a future year" });

export const sendStatementsBody = z
  .object({
    year: statementYear().meta({
      description: "The calendar year (UTC) the statements cover, from 2000 to the current year",
      example: 2025,
    }),
    resend: z.boolean().optional().meta({
      description: "Send again to donors who already had this year's statement (otherwise only donors who have not had it get one)",
    }),
  })
  .meta({ id: "SendStatements" });

export const sendStatementsResult = z
  .object({
    runId: z.string().nullable().meta({ description: "The run these emails belong to (null when nothing was queued)" }),
    queued: z.number().int().meta({ description: "Statement emails queued by this request" }),
  })
  .meta({ id: "StatementsQueued" });

export const statementRunsQuery = z.object({
  year: z.coerce.number().int().min(FIRST_STATEMENT_YEAR).max(9999).optional().meta({ description: "Only the runs of this year" }),
});

export const statementRunSchema = z
  .object({
    id: z.string(),
    year: z.number().int(),
    resend: z.boolean(),
    requestedBy: z.string().nullable().meta({ description: "The user who asked (null for an API key)" }),
    queued: z.number().int().meta({ description: "Emails this run queued" }),
    sent: z.number().int().meta({ description: "Of those, sent (or, without an email provider, kept in the outbox)" }),
    failed: z.number().int().meta({ description: "Of those, given up on after every retry" }),
    pending: z.number().int().meta({ description: "Of those, still waiting to be sent" }),
    createdAt: z.string(),
  })
  .meta({ id: "StatementRun" });

export const statementRunsResult = z.object({ data: z.array(statementRunSchema) }).meta({ id: "StatementRuns" });

/** `GET /api/donor/orgs/:orgSlug/statements/:year`: the year as a path segment. */
export const donorStatementParams = donorOrgParam.extend({
  year: z.coerce.number().int().min(FIRST_STATEMENT_YEAR).max(9999),
});
