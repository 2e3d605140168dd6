import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { dropAllCampaignViews } from "@/lib/cache/public-campaign-view";
import type { Db } from "@/db";
import { findDonorOfOrg } from "@/db/queries/donor-requests";
import {
  donationDonorDetails,
  donations,
  donorNotes,
  donorRequests,
  donors,
  donorSignInLinks,
  outbox,
  recurringPlans,
  reminderOptOuts,
  tickets,
  webhookEvents,
  type Donor,
} from "@/db/schema";
import { erasedEmail } from "@/lib/donor-erasure";
import { notFound, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { emitEvent } from "@/lib/webhooks-out/emit";

/** Why a pending email to an erased donor was never sent (its `lastError`). */
export const ERASED_EMAIL_CANCELED = "Canceled: the donor's personal data was erased";

/**
 * Cancels the donor's open recurring plans at the processor, now (marked `canceled_by = 'staff'`
 * first, so the processor's `customer.subscription.deleted` ends them as a staff cancellation).
 * A plan whose first payment form was never completed has no subscription: it is closed here.
 * A processor failure stops the erasure (503) before anything is anonymized: erasing a donor
 * whose card keeps being charged would leave a charge nobody can trace to a person.
 */
async function cancelOpenPlans(db: Db, processor: PaymentProcessor, donorId: string): Promise<void> {
  const open = await db
    .select()
    .from(recurringPlans)
    .where(and(eq(recurringPlans.donorId, donorId), ne(recurringPlans.status, "CANCELED")));
  for (const plan of open) {
    await db
      .update(recurringPlans)
      .set({ canceledBy: sql`coalesce(${recurringPlans.canceledBy}, 'staff')`, updatedAt: sql`now()` })
      .where(eq(recurringPlans.id, plan.id));
    if (!plan.subscriptionId) {
      await db
        .update(recurringPlans)
        .set({ status: "CANCELED", canceledAt: sql`coalesce(${recurringPlans.canceledAt}, now())`, updatedAt: sql`now()` })
        .where(eq(recurringPlans.id, plan.id));
      continue;
    }
    try {
      await processor.cancelSubscription({ subscriptionId: plan.subscriptionId });
    } catch (err) {
      if (!(err instanceof ProcessorError)) throw err;
      log.warn("subscription cancel failed at the processor during an erasure", { planId: plan.id, ...errorFields(err) });
      throw processorUnavailable();
    }
  }
}

/** The name an erased donor's tickets carry. */
export const ERASED_ATTENDEE = "Erased";

/**
 * Erases a donor's personal data and keeps their money records, as the books require:
 *
 * - the donor: email → `erased+<id>@invalid` (unique, undeliverable), names, phone, address and
 *   tags removed, email consent off, staff notes, the details given on the donate form and their reminder opt-outs deleted,
 *   `erased_at` set;
 *   totals untouched (they are sums of the donations, which stay);
 * - their donations: the same placeholder email, names, message, dedication and client IP null;
 * - their open recurring plans canceled at the processor first (see cancelOpenPlans);
 * - outbox emails to their address, or about their donations: pending ones canceled (never
 *   sent), and every one's recipient and rendered data dropped; their sign-in links deleted;
 * - outbound webhook events already recorded about their donations and plans: the personal
 *   fields replaced the same way, so a later delivery or retry carries no personal data;
 * - their pending data requests completed; an audit entry `donor.erased` and one outbound
 *   `donor.erased` event carrying only the donor's ID.
 *
 * Idempotent: a donor already erased answers as it stands and nothing is emitted again (the
 * donor row is locked, so two concurrent erasures emit once). Answers the erased donor.
 */
export async function eraseDonor(
  db: Db,
  processor: PaymentProcessor,
  orgId: string,
  donorId: string,
  audit: AuditContext,
  options: { requestId?: string } = {},
): Promise<Donor> {
  const current = await findDonorOfOrg(db, orgId, donorId);
  if (!current) throw notFound("donor_not_found", "Donor not found");
  if (current.erasedAt) return current;

  await cancelOpenPlans(db, processor, donorId);

  const result = await db.transaction(async (tx) => {
    const [donor] = await tx.select().from(donors).where(eq(donors.id, donorId)).for("update");
    if (donor.erasedAt) return donor;
    const placeholder = erasedEmail(donorId);
    const oldEmail = donor.email;

    const donationIds = (await tx.select({ id: donations.id }).from(donations).where(eq(donations.donorId, donorId))).map((d) => d.id);
    // Their "no more unfinished-gift reminders" wishes name them by address: the addresses go too
    // (the donor's, and any their gifts were given with), before the gifts' addresses are replaced.
    await tx.delete(reminderOptOuts).where(
      and(
        eq(reminderOptOuts.orgId, orgId),
        sql`${reminderOptOuts.email} in (
          select lower(${donations.email}) from ${donations} where ${donations.donorId} = ${donorId} and ${donations.email} is not null
          union select lower(${oldEmail}::text))`,
      ),
    );
    await tx
      .update(donations)
      .set({
        email: placeholder,
        firstName: null,
        lastName: null,
        message: null,
        dedication: null,
        clientIp: null,
        // An event order keeps its seats per tier; the people named on it go.
        // (A gift without tickets may hold a JSON null there, which has no elements to go through.)
        ticketOrder: sql`case when jsonb_typeof(${donations.ticketOrder}) = 'array' then (select coalesce(jsonb_agg(jsonb_set(line, '{attendees}', '[]'::jsonb)), '[]'::jsonb) from jsonb_array_elements(${donations.ticketOrder}) line) else ${donations.ticketOrder} end`,
      })
      .where(eq(donations.donorId, donorId));
    // Their tickets stay valid for the door, under no name.
    if (donationIds.length > 0) {
      await tx.update(tickets).set({ attendeeName: ERASED_ATTENDEE, attendeeEmail: null }).where(inArray(tickets.donationId, donationIds));
    }

    // Emails to the donor, or carrying their details (staff alerts and tribute notices of their
    // donations, whose outbox keys end with the donation's ID).
    const aboutDonor = sql`${outbox.kind} = 'email' and (
      (${outbox.orgId} = ${orgId} and (lower(${outbox.payload}->>'to') = lower(${oldEmail})
        or position(lower(${oldEmail}) in lower(${outbox.payload}::text)) > 0))
      ${
        donationIds.length > 0
          ? sql`or split_part(${outbox.dedupeKey}, ':', 3) in (${sql.join(
              donationIds.map((id) => sql`${id}`),
              sql`, `,
            )})`
          : sql``
      })`;
    await tx
      .update(outbox)
      .set({ status: "FAILED", lastError: ERASED_EMAIL_CANCELED, leaseUntil: null })
      .where(and(sql`(${aboutDonor})`, eq(outbox.status, "PENDING")));
    await tx
      .update(outbox)
      .set({
        payload: sql`jsonb_build_object(
          'template', ${outbox.payload}->'template',
          'to', case when lower(${outbox.payload}->>'to') = lower(${oldEmail}) then to_jsonb(${placeholder}::text) else ${outbox.payload}->'to' end,
          'erased', true)`,
      })
      .where(sql`(${aboutDonor})`);

    await tx.delete(donorSignInLinks).where(eq(donorSignInLinks.donorId, donorId));
    await tx.delete(donorNotes).where(eq(donorNotes.donorId, donorId));
    if (donationIds.length > 0) await tx.delete(donationDonorDetails).where(inArray(donationDonorDetails.donationId, donationIds));

    // Events already recorded: their stored payloads are what deliveries and retries send.
    await tx
      .update(webhookEvents)
      .set({
        payload: sql`jsonb_set(${webhookEvents.payload}, '{data}', (${webhookEvents.payload}->'data') || jsonb_build_object(
          'email', ${placeholder}::text, 'firstName', null, 'lastName', null, 'message', null, 'dedication', null))`,
      })
      .where(
        and(
          eq(webhookEvents.orgId, orgId),
          sql`${webhookEvents.type} like 'donation.%'`,
          sql`${webhookEvents.payload}->'data'->>'donorId' = ${donorId}`,
        ),
      );
    await tx
      .update(webhookEvents)
      .set({ payload: sql`jsonb_set(${webhookEvents.payload}, '{data,email}', to_jsonb(${placeholder}::text))` })
      .where(
        and(
          eq(webhookEvents.orgId, orgId),
          sql`${webhookEvents.type} like 'recurring_plan.%'`,
          sql`${webhookEvents.payload}->'data'->>'donorId' = ${donorId}`,
        ),
      );

    const [erased] = await tx
      .update(donors)
      .set({
        email: placeholder,
        firstName: null,
        lastName: null,
        phone: null,
        address: null,
        tags: [],
        emailOptIn: false,
        erasedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(eq(donors.id, donorId))
      .returning();

    const completed = await tx
      .update(donorRequests)
      .set({ status: "COMPLETED", decidedAt: sql`now()`, decidedBy: audit.actor.type === "user" ? audit.actor.id : null })
      .where(and(eq(donorRequests.donorId, donorId), eq(donorRequests.kind, "ERASURE"), eq(donorRequests.status, "PENDING")))
      .returning({ id: donorRequests.id });

    await recordAudit(tx, audit, {
      orgId,
      action: "donor.erased",
      target: { type: "donor", id: donorId },
      data: {
        donations: donationIds.length,
        ...(options.requestId ? { requestId: options.requestId } : {}),
        ...(completed.length > 0 ? { requests: completed.map((r) => r.id) } : {}),
      },
    });
    await emitEvent(tx, orgId, "donor.erased", { id: donorId });
    return erased;
  });
  // No public donor roll of this process names them from now on (others' within their second).
  dropAllCampaignViews();
  return result;
}
