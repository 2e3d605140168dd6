import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donors, organizations, outbox, statementDeliveries, statementRuns, type Organization } from "@/db/schema";
import { enqueueEmails, type QueuedEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { newId } from "@/lib/ids";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { listStatementDonorIds } from "./statement-data";

/** The dedupe key of a run's email to one donor (the outbox adds its `email:` prefix). */
export const statementDedupeKey = (runId: string, donorId: string) => `statement:${runId}:${donorId}`;

/**
 * Queues the year's statements: one `statement_runs` row, and for every donor (not erased) with
 * at least one counted gift that year one `statement_deliveries` row and one email, whose PDF is
 * rendered when it is sent (it is deterministic, so it is the file the donor downloads). Without
 * `resend`, donors who already had that year's statement are skipped, so asking twice queues
 * nothing new (`queued: 0`, and no run is recorded). The organization's row is locked for the
 * transaction, so two requests for the same year take turns instead of both sending. The audit
 * entry `statements.sent` commits with the run.
 */
export async function sendStatements(
  db: DbOrTx,
  org: Organization,
  input: { year: number; resend?: boolean },
  audit: AuditContext,
): Promise<{ runId: string | null; queued: number }> {
  const resend = input.resend === true;
  return db.transaction(async (tx) => {
    await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, org.id)).for("no key update");
    let donorIds = await listStatementDonorIds(tx, org.id, input.year, org.timeZone);
    if (!resend && donorIds.length > 0) {
      const had = await tx
        .selectDistinct({ donorId: statementDeliveries.donorId })
        .from(statementDeliveries)
        .where(and(eq(statementDeliveries.orgId, org.id), eq(statementDeliveries.year, input.year)));
      const done = new Set(had.map((r) => r.donorId));
      donorIds = donorIds.filter((id) => !done.has(id));
    }
    if (donorIds.length === 0) return { runId: null, queued: 0 };

    const runId = newId("str");
    await tx.insert(statementRuns).values({
      id: runId,
      orgId: org.id,
      year: input.year,
      resend,
      requestedBy: audit.actor.type === "user" ? audit.actor.id : null,
      queued: donorIds.length,
    });
    const accountUrl = `${donateBaseUrl(org)}/account`;
    const orgName = org.legalName || org.name;
    const emails: QueuedEmail[] = [];
    // In slices, so an organization with many donors never builds one enormous statement.
    for (let i = 0; i < donorIds.length; i += 1000) {
      const ids = donorIds.slice(i, i + 1000);
      await tx.insert(statementDeliveries).values(ids.map((donorId) => ({ runId, orgId: org.id, year: input.year, donorId })));
      const people = await tx
        .select({ id: donors.id, email: donors.email, firstName: donors.firstName, lastName: donors.lastName, locale: donors.locale })
        .from(donors)
        .where(inArray(donors.id, ids));
      for (const p of people) {
        if (!p.email) continue;
        emails.push({
          template: "year-end-statement",
          to: p.email,
          orgId: org.id,
          dedupeKey: statementDedupeKey(runId, p.id),
          props: {
            orgName,
            donorFirstName: p.firstName,
            donorName: [p.firstName, p.lastName].filter(Boolean).join(" ") || null,
            year: input.year,
            accountUrl,
            statement: { orgId: org.id, donorId: p.id, year: input.year },
            // The donor's language (that of their last gift), else the organization's.
            locale: emailLocale(p.locale, org.defaultLocale),
          },
        });
      }
    }
    for (let i = 0; i < emails.length; i += 500) await enqueueEmails(tx, emails.slice(i, i + 500));
    await recordAudit(tx, audit, {
      orgId: org.id,
      action: "statements.sent",
      target: { type: "organization", id: org.id },
      data: { year: input.year, resend, queued: donorIds.length, runId },
    });
    return { runId, queued: donorIds.length };
  });
}

// statementDedupeKey in SQL, for joining a run's deliveries to their outbox rows.
const statementDedupeKeySql = sql`'statement:' || ${statementRuns.id} || ':' || ${statementDeliveries.donorId}`;

/** The organization's statement runs (newest first), each with its emails counted by outbox status. */
export async function listStatementRuns(db: DbOrTx, orgId: string, year?: number) {
  const rows = await db
    .select({
      id: statementRuns.id,
      year: statementRuns.year,
      resend: statementRuns.resend,
      requestedBy: statementRuns.requestedBy,
      queued: statementRuns.queued,
      createdAt: statementRuns.createdAt,
      sent: sql<number>`count(*) filter (where ${outbox.status} = 'SENT')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${outbox.status} = 'FAILED')`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${outbox.status} = 'PENDING')`.mapWith(Number),
    })
    .from(statementRuns)
    .leftJoin(statementDeliveries, eq(statementDeliveries.runId, statementRuns.id))
    .leftJoin(outbox, eq(outbox.dedupeKey, sql`'email:' || ${statementDedupeKeySql}`))
    .where(year === undefined ? eq(statementRuns.orgId, orgId) : and(eq(statementRuns.orgId, orgId), eq(statementRuns.year, year)))
    .groupBy(statementRuns.id)
    .orderBy(sql`${statementRuns.createdAt} desc`, sql`${statementRuns.id} desc`)
    .limit(100);
  return rows;
}
