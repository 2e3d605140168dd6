import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamptz } from "./columns";
import { users } from "./auth";
import { donors } from "./donations";
import { organizations } from "./organizations";

/**
 * Donor sign-in links: single use, 15 minutes. Only a SHA-256 hash of the
 * token is kept; the worker purges used and expired rows.
 */
export const donorSignInLinks = pgTable(
  "donor_sign_in_links",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    donorId: belongsTo(() => donors.id),
    tokenHash: text().notNull(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("donor_sign_in_links_token_key").on(t.tokenHash), index("donor_sign_in_links_expires_idx").on(t.expiresAt)],
);

/**
 * Signed-in donor sessions: the donor cookie names one by its random ID, and only the ID's
 * SHA-256 is kept, so a database dump holds no usable cookie. Signing out deletes the row, after
 * which the cookie (and any copy of it) no longer signs anyone in. The worker deletes expired rows.
 */
export const donorSessions = pgTable(
  "donor_sessions",
  {
    idHash: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    donorId: belongsTo(() => donors.id),
    expiresAt: timestamptz().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("donor_sessions_donor_idx").on(t.donorId), index("donor_sessions_expires_idx").on(t.expiresAt)],
);

/** One `POST /api/orgs/:idOrSlug/statements` request: which year, and how many emails it queued. */
export const statementRuns = pgTable(
  "statement_runs",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    year: integer().notNull(),
    resend: boolean().notNull().default(false),
    requestedBy: text().references(() => users.id, { onDelete: "set null" }),
    queued: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("statement_runs_org_year_idx").on(t.orgId, t.year, t.createdAt)],
);

/** Each donor's statement of a run; its email is the outbox row `statement:<runId>:<donorId>`. */
export const statementDeliveries = pgTable(
  "statement_deliveries",
  {
    runId: belongsTo(() => statementRuns.id),
    orgId: belongsTo(() => organizations.id),
    year: integer().notNull(),
    donorId: belongsTo(() => donors.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.donorId] }), index("statement_deliveries_org_year_donor_idx").on(t.orgId, t.year, t.donorId)],
);

/** A donor's own request for a copy of their data or for erasure, and what staff decided. */
export const donorRequests = pgTable(
  "donor_requests",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    donorId: belongsTo(() => donors.id),
    kind: text().$type<"EXPORT" | "ERASURE">().notNull(),
    status: text().$type<"PENDING" | "COMPLETED" | "REJECTED">().notNull().default("PENDING"),
    createdAt: createdAt(),
    decidedAt: timestamptz(),
    decidedBy: text().references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("donor_requests_org_status_idx").on(t.orgId, t.status, t.createdAt)],
);

/** Reconciliation with the processor: one row per run, what it looked at and what it repaired. */
export const reconcileRuns = pgTable(
  "reconcile_runs",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    trigger: text().$type<"schedule" | "manual">().notNull(),
    startedAt: timestamptz().notNull().defaultNow(),
    finishedAt: timestamptz(),
    /** Events created at or after this instant were listed (the previous checkpoint minus the overlap). */
    listedFrom: timestamptz(),
    /** The checkpoint the next run starts from (this run's start), set only when the run completed. */
    checkpoint: timestamptz(),
    eventsListed: integer().notNull().default(0),
    eventsApplied: integer().notNull().default(0),
    pendingChecked: integer().notNull().default(0),
    pendingSettled: integer().notNull().default(0),
    repairs: jsonb().$type<Array<Record<string, unknown>>>().notNull().default([]),
    error: text(),
  },
  (t) => [index("reconcile_runs_started_idx").on(t.startedAt)],
);

/**
 * The sandbox processor's own event log, as Stripe keeps one: every event it emits is recorded
 * here before delivery, so reconciliation can list what a dropped delivery missed.
 */
export const sandboxEvents = pgTable(
  "sandbox_events",
  {
    id: text().primaryKey(),
    type: text().notNull(),
    accountId: text(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sandbox_events_created_idx").on(t.createdAt, t.id)],
);
