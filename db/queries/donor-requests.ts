import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donorRequests, donors, outbox, type Donor } from "@/db/schema";
import { findOrgRow } from "./rows";

export type DonorRequest = typeof donorRequests.$inferSelect;

/** A donor of the organization (404s are the caller's: a donor of another organization is not found). */
export function findDonorOfOrg(db: DbOrTx, orgId: string, donorId: string): Promise<Donor | undefined> {
  return findOrgRow(db, donors, orgId, donorId);
}

/** The organization's donor requests, pending ones first (oldest first: the queue), then the decided ones, newest first. */
export async function listDonorRequests(db: DbOrTx, orgId: string, limit = 200): Promise<{ request: DonorRequest; donor: Donor }[]> {
  return db
    .select({ request: donorRequests, donor: donors })
    .from(donorRequests)
    .innerJoin(donors, eq(donors.id, donorRequests.donorId))
    .where(eq(donorRequests.orgId, orgId))
    .orderBy(
      sql`(${donorRequests.status} = 'PENDING') desc`,
      sql`case when ${donorRequests.status} = 'PENDING' then ${donorRequests.createdAt} end asc`,
      desc(donorRequests.createdAt),
      asc(donorRequests.id),
    )
    .limit(limit);
}

export async function listRequestsOfDonor(db: DbOrTx, donorId: string): Promise<DonorRequest[]> {
  return db.select().from(donorRequests).where(eq(donorRequests.donorId, donorId)).orderBy(desc(donorRequests.createdAt));
}

export function findDonorRequest(db: DbOrTx, orgId: string, id: string): Promise<DonorRequest | undefined> {
  return findOrgRow(db, donorRequests, orgId, id);
}

export async function findPendingErasureRequest(db: DbOrTx, donorId: string): Promise<DonorRequest | undefined> {
  const [r] = await db
    .select()
    .from(donorRequests)
    .where(and(eq(donorRequests.donorId, donorId), eq(donorRequests.kind, "ERASURE"), eq(donorRequests.status, "PENDING")))
    .limit(1);
  return r;
}

/** The outbox emails addressed to `email` in the organization (case-insensitive), newest first. */
export async function listEmailsTo(db: DbOrTx, orgId: string, email: string) {
  return db
    .select({ payload: outbox.payload, status: outbox.status, createdAt: outbox.createdAt, sentAt: outbox.sentAt })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), eq(outbox.orgId, orgId), sql`lower(${outbox.payload}->>'to') = lower(${email})`))
    .orderBy(desc(outbox.createdAt), desc(outbox.id));
}
