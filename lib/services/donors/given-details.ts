import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donationDonorDetails, donors, type Donation, type PostalAddress } from "@/db/schema";

/** Keeps what the donate form gave besides the gift (consent, address), with the new donation. */
export async function recordGivenDetails(
  tx: DbOrTx,
  donation: Pick<Donation, "id" | "orgId">,
  given: { emailOptIn?: boolean; address?: PostalAddress | null },
): Promise<void> {
  if (!given.emailOptIn && !given.address) return;
  await tx
    .insert(donationDonorDetails)
    .values({ donationId: donation.id, orgId: donation.orgId, emailOptIn: given.emailOptIn ?? false, address: given.address ?? null });
}

/**
 * The donation's payment succeeded: its donor takes the details given with it, once. A tick of
 * the consent box opts the donor in (an unticked box withdraws nothing: consent is withdrawn by
 * unsubscribing or by staff); a given address replaces the donor's (the newest one wins).
 */
export async function applyGivenDetails(tx: DbOrTx, donation: Pick<Donation, "id" | "donorId" | "status">): Promise<void> {
  if (donation.status !== "SUCCEEDED") return;
  const [given] = await tx
    .update(donationDonorDetails)
    .set({ appliedAt: sql`now()` })
    .where(and(eq(donationDonorDetails.donationId, donation.id), isNull(donationDonorDetails.appliedAt)))
    .returning();
  if (!given) return;
  await tx
    .update(donors)
    .set({
      emailOptIn: sql`${donors.emailOptIn} or ${given.emailOptIn}`,
      ...(given.address ? { address: given.address } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(donors.id, donation.donorId), isNull(donors.erasedAt)));
}
