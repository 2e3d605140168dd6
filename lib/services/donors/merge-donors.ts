import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { pgErrorCode } from "@/db/errors";
import { findDonorOfOrg } from "@/db/queries/donor-requests";
import { recomputeDonorTotals } from "@/db/queries/donor-totals";
import {
  campaigns,
  donations,
  donorNotes,
  donorRequests,
  donors,
  donorSessions,
  donorSignInLinks,
  recurringPlans,
  statementDeliveries,
  type Donor,
} from "@/db/schema";
import { conflict, fieldError, notFound } from "@/lib/errors";
import { MAX_DONOR_TAGS } from "@/lib/schemas/donors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { emitEvent } from "@/lib/webhooks-out/emit";

const donorNotFound = () => notFound("donor_not_found", "Donor not found");

/** The survivor's tags, then the merged donor's that it lacks (case-insensitive). */
export function mergedTags(target: string[], source: string[]): string[] {
  const seen = new Set(target.map((t) => t.toLowerCase()));
  return [...target, ...source.filter((t) => !seen.has(t.toLowerCase()) && seen.add(t.toLowerCase()))];
}

/** What the survivor keeps: its own details, with the merged donor's where it has none. */
function mergedDetails(target: Donor, source: Donor) {
  return {
    // A target recorded without email (an offline gift) takes the source's, with its consent.
    email: target.email ?? source.email,
    emailOptIn: target.email === null ? source.emailOptIn : target.emailOptIn,
    firstName: target.firstName ?? source.firstName,
    lastName: target.lastName ?? source.lastName,
    phone: target.phone ?? source.phone,
    address: target.address ?? source.address,
    locale: target.locale ?? source.locale,
    tags: mergedTags(target.tags, source.tags),
  };
}

/** Both donors locked (in ID order, so two merges of the same pair cannot deadlock) and re-read. */
async function lockPair(tx: Tx, targetId: string, sourceId: string): Promise<{ target: Donor; source: Donor }> {
  const rows = await tx
    .select()
    .from(donors)
    .where(inArray(donors.id, [targetId, sourceId]))
    .orderBy(asc(donors.id))
    .for("update");
  const target = rows.find((d) => d.id === targetId);
  const source = rows.find((d) => d.id === sourceId);
  // A concurrent merge removed one of them.
  if (!target || !source) throw donorNotFound();
  return { target, source };
}

/**
 * Merges `sourceId` into `targetId`, two donors of the organization (the same person under two
 * records). The target survives with its ID, email and email consent (a target without email
 * takes the source's, and its consent); it takes the source's name, phone, address and language
 * where it has none, and the union of both tag lists (409
 * `donor_tags_limit` beyond 50). Every donation, recurring plan (so later renewals), note, data
 * request and statement delivery of the source moves to the target; the source's donor-account
 * sessions and sign-in links end (its email no longer names a donor), and the source is deleted.
 * The target's totals are then recomputed from its donations, in the same transaction; campaign
 * totals do not change (no gift changes campaign or status). Audited as `donor.merged` and emits
 * `donor.merged` `{ donorId, mergedDonorId }`.
 *
 * Locking: the source's donations first, then both donors. A processor event locks a donation,
 * then its donor; taking the donations first waits for events in flight on the source's gifts
 * instead of deadlocking with them, and an event arriving later finds the gift on the target.
 * Erased donors are not merged (409 `donor_erased`).
 */
export async function mergeDonors(db: Db, orgId: string, targetId: string, sourceId: string, audit: AuditContext): Promise<Donor> {
  if (sourceId === targetId) throw fieldError("sourceDonorId", "A donor cannot be merged into itself", "merge_into_itself");
  const source = await findDonorOfOrg(db, orgId, sourceId);
  if (!source) throw donorNotFound();

  // Postgres may still pick this merge as a deadlock's victim (say, against a renewal that holds
  // the source's plan and waits for its donor): the whole transaction is rolled back, so it is
  // run again, a few times at most.
  for (let attempt = 1; ; attempt++) {
    try {
      return await mergeOnce(db, orgId, targetId, sourceId, audit);
    } catch (err) {
      const code = pgErrorCode(err);
      if (attempt >= MERGE_ATTEMPTS || (code !== "40P01" && code !== "40001")) throw err;
    }
  }
}

const MERGE_ATTEMPTS = 3;

async function mergeOnce(db: Db, orgId: string, targetId: string, sourceId: string, audit: AuditContext): Promise<Donor> {
  return db.transaction(async (tx) => {
    await tx.select({ id: donations.id }).from(donations).where(eq(donations.donorId, sourceId)).for("update");
    const pair = await lockPair(tx, targetId, sourceId);
    if (pair.target.erasedAt || pair.source.erasedAt) throw conflict("donor_erased", "An erased donor cannot be merged");
    const details = mergedDetails(pair.target, pair.source);
    if (details.tags.length > MAX_DONOR_TAGS) {
      throw conflict("donor_tags_limit", `The merged donor would have more than ${MAX_DONOR_TAGS} tags; remove some first`);
    }

    const moved = await tx
      .update(donations)
      .set({ donorId: targetId })
      .where(eq(donations.donorId, sourceId))
      .returning({ id: donations.id });
    const plans = await tx
      .update(recurringPlans)
      .set({ donorId: targetId, updatedAt: sql`now()` })
      .where(eq(recurringPlans.donorId, sourceId))
      .returning({ id: recurringPlans.id });
    const notes = await tx
      .update(donorNotes)
      .set({ donorId: targetId })
      .where(eq(donorNotes.donorId, sourceId))
      .returning({ id: donorNotes.id });
    await tx.update(donorRequests).set({ donorId: targetId }).where(eq(donorRequests.donorId, sourceId));
    // The supporter's fundraiser pages are theirs under the surviving record.
    const pages = await tx
      .update(campaigns)
      .set({ fundraiserDonorId: targetId })
      .where(and(eq(campaigns.orgId, orgId), eq(campaigns.fundraiserDonorId, sourceId)))
      .returning({ id: campaigns.id });
    // One statement per donor and run: where both had one, the target's stands for the pair.
    await tx
      .update(statementDeliveries)
      .set({ donorId: targetId })
      .where(
        and(
          eq(statementDeliveries.donorId, sourceId),
          sql`not exists (select 1 from ${statementDeliveries} t where t.run_id = ${statementDeliveries.runId} and t.donor_id = ${targetId})`,
        ),
      );
    await tx.delete(statementDeliveries).where(eq(statementDeliveries.donorId, sourceId));
    await tx.delete(donorSessions).where(eq(donorSessions.donorId, sourceId));
    await tx.delete(donorSignInLinks).where(eq(donorSignInLinks.donorId, sourceId));
    await tx.delete(donors).where(eq(donors.id, sourceId));

    await tx.update(donors).set(details).where(eq(donors.id, targetId));
    const merged = await recomputeDonorTotals(tx, targetId);

    await recordAudit(tx, audit, {
      orgId,
      action: "donor.merged",
      target: { type: "donor", id: targetId },
      data: {
        mergedDonorId: sourceId,
        donations: moved.length,
        recurringPlans: plans.length,
        notes: notes.length,
        fundraiserPages: pages.length,
      },
    });
    await emitEvent(tx, orgId, "donor.merged", { donorId: targetId, mergedDonorId: sourceId });
    return merged;
  });
}
