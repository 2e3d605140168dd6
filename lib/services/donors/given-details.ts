import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { sqlStatement } from "@/db/statements";
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

const ph = sql.placeholder;

// One statement, so that it can go out with the other statements of a success (moveDonation's
// `applyGivenDetails`) instead of a round trip of its own under the campaign's lock.
const applyGiven = sqlStatement<{ donationId: string; donorId: string }>(sql`
  with given as (
    update ${donationDonorDetails} set applied_at = now()
    where donation_id = ${ph("donationId")} and applied_at is null
    returning email_opt_in, address
  )
  update ${donors} set email_opt_in = ${donors}.email_opt_in or given.email_opt_in,
                       address = coalesce(given.address, ${donors}.address), updated_at = now()
  from given where ${donors}.id = ${ph("donorId")} and ${donors}.erased_at is null`);

/**
 * The donation's payment succeeded: its donor takes the details given with it, once. A tick of
 * the consent box opts the donor in (an unticked box withdraws nothing: consent is withdrawn by
 * unsubscribing or by staff); a given address replaces the donor's (the newest one wins).
 */
export async function applyGivenDetails(tx: DbOrTx, donation: Pick<Donation, "id" | "donorId" | "status">): Promise<void> {
  if (donation.status !== "SUCCEEDED") return;
  await applyGiven(tx, { donationId: donation.id, donorId: donation.donorId });
}
