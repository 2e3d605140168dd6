import { and, eq, sql } from "drizzle-orm";
import { chooseLocale } from "@/lib/i18n/locales";
import type { Db } from "@/db";
import { poolStatement, setTo, statement } from "@/db/statements";
import { transaction } from "@/db/transaction";
import {
  campaigns,
  donationEvents,
  donations,
  organizations,
  recurringPlans,
  type Campaign,
  type Donation,
  type Organization,
  type TicketOrderLine,
} from "@/db/schema";
import { reserveTierSeats, tiersOf } from "@/lib/services/events/ticket-tiers";
import { acceptsDonations } from "@/lib/accepting-donations";
import { getEnv } from "@/lib/env";
import { addressRequired } from "@/lib/address-required";
import { conflict, Issues, notFound, processorUnavailable, type IssueValue } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { errorFields, log } from "@/lib/log";
import { coverFeeCents, formatMoney, minimumDonationMinor, platformFeeCents } from "@/lib/money";
import type { PaymentProcessor } from "@/lib/processor/types";
import { processorIntervalOf } from "@/lib/recurring-intervals";
import type { CreateDonationInput } from "@/lib/schemas/donations";
import { assertFewFailedPayments } from "./failed-payments";
import { assertUpsellFitsCampaign } from "@/lib/services/recurring/upsell";
import { assertHeldTicketsWithinCap } from "./held-tickets";
import { moveDonation } from "./move-donation";
import { recordGivenDetails } from "@/lib/services/donors/given-details";
import { findOrCreateDonor } from "./upsert-donor";
import { assertCaptcha } from "./verify-captcha";
import { assertReceiptFields, receiptFields } from "@/lib/services/receipts/donate-form-fields";

/** Who started the donation: the client's rate-limit key, and the `Accept-Language` its language falls back to. */
export type DonationRequest = { clientIp: string | null; acceptLanguage?: string | null };

export type CreatedDonation = { donation: Donation; clientSecret: string; subscriptionId: string | null; chargeAmountCents: number };

/** The campaign's own rules for a gift; each failure is a 400 on its field, with a code. */
export function assertDonationFitsCampaign(input: CreateDonationInput, campaign: Campaign, org: Organization): void {
  const issues = new Issues();
  const recurring = input.recurringInterval ?? null;

  if (!input.address && addressRequired(campaign, org))
    issues.add("address", "Your postal address is required for this gift", "address_required");
  if (input.currency && input.currency !== org.currency) {
    issues.add("currency", `This campaign accepts ${org.currency} only`, "currency_not_accepted", { values: [org.currency] });
  }
  // The currency's smallest gift (100 cents, ¥100, 1.000 BHD) or the campaign's own minimum if higher.
  const minimum = Math.max(minimumDonationMinor(org.currency), campaign.minAmountCents ?? 0);
  if (input.amount < minimum) {
    issues.add("amount", `Number must be greater than or equal to ${minimum}`, "amount_below_minimum", { minimum });
  }
  if (campaign.type === "EVENT") {
    ticketOrderOf(input, campaign, org, issues);
    if (recurring) issues.add("recurringInterval", "Event tickets are one-time payments", "tickets_one_time");
  } else {
    if (input.tickets) issues.add("tickets", "Only EVENT campaigns sell tickets", "tickets_not_sold");
    if (input.extraAmount) issues.add("extraAmount", "Only EVENT campaigns sell tickets", "tickets_not_sold");
    if (!campaign.allowCustomAmount && !campaign.suggestedAmounts.includes(input.amount)) {
      issues.add("amount", `Choose one of the suggested amounts: ${campaign.suggestedAmounts.join(", ")}`, "not_a_suggested_amount", {
        values: campaign.suggestedAmounts,
      });
    }
  }
  if (recurring && !campaign.allowRecurring)
    issues.add("recurringInterval", "This campaign does not take recurring gifts", "recurring_not_allowed");
  if (!recurring && campaign.type === "MEMBERSHIP")
    issues.add("recurringInterval", "Required for MEMBERSHIP campaigns", "recurring_required");
  assertUpsellFitsCampaign(input, campaign, issues);
  assertReceiptFields(issues, input, org);
  issues.throwIfAny();
}

/**
 * An event order as lines per tier, checked against the campaign's tiers: every tier known, the
 * seats within `maxTicketsPerOrder`, and `amount` = Σ price × quantity + `extraAmount`. The
 * integer form buys the single tier of a campaign that has one. Null (with issues added) when the
 * order can't be made.
 */
export function ticketOrderOf(
  input: CreateDonationInput,
  campaign: Campaign,
  org: Organization,
  issues?: Issues,
): TicketOrderLine[] | null {
  const tiers = tiersOf(campaign);
  const add = (field: string, message: string, code: string, values?: Record<string, IssueValue | IssueValue[]>) =>
    issues?.add(field, message, code, values);
  if (!input.tickets) {
    add("tickets", "Required for event tickets", "tickets_required");
    return null;
  }
  let requested: { tierId: string; quantity: number; attendees?: { name: string; email: string | null }[] }[];
  if (typeof input.tickets === "number") {
    if (tiers.length !== 1) {
      add("tickets", "Choose the tier of each ticket", "tier_required", { values: tiers.map((t) => t.id) });
      return null;
    }
    requested = [{ tierId: tiers[0].id, quantity: input.tickets }];
  } else requested = input.tickets;
  const lines: TicketOrderLine[] = [];
  let ok = true;
  requested.forEach((r, i) => {
    const tier = tiers.find((t) => t.id === r.tierId);
    if (!tier) {
      add(`tickets.${i}.tierId`, "No such ticket tier for this event", "unknown_tier", { values: tiers.map((t) => t.id) });
      ok = false;
      return;
    }
    lines.push({
      tierId: tier.id,
      tierName: tier.name,
      quantity: r.quantity,
      priceCents: tier.priceCents,
      fairMarketValueCents: tier.fairMarketValueCents,
      attendees: (r.attendees ?? []).map((a) => ({ name: a.name, email: a.email ?? null })),
    });
  });
  if (!ok) return null;
  const seats = lines.reduce((n, l) => n + l.quantity, 0);
  if (seats > campaign.maxTicketsPerOrder) {
    add("tickets", `At most ${campaign.maxTicketsPerOrder} tickets per order`, "tickets_over_limit", {
      maximum: campaign.maxTicketsPerOrder,
    });
    return null;
  }
  const ticketsTotal = lines.reduce((n, l) => n + l.quantity * l.priceCents, 0);
  const total = ticketsTotal + (input.extraAmount ?? 0);
  if (input.amount !== total) {
    const single = typeof input.tickets === "number" && !input.extraAmount;
    add(
      "amount",
      single
        ? `Must be tickets × ticket price (${seats} × ${formatMoney(lines[0].priceCents, org.currency)} = ${total})`
        : `Must be the tickets' total plus the extra gift (${formatMoney(ticketsTotal, org.currency)} + ${formatMoney(input.extraAmount ?? 0, org.currency)} = ${total})`,
      "amount_not_ticket_total",
      { tickets: seats, ticketPriceCents: lines[0].priceCents, expected: total },
    );
    return null;
  }
  return lines;
}

const ph = sql.placeholder;

// The statements of a one-time gift, built once (db/statements.ts) and run on the pool or in the
// gift's transaction.

const campaignWithOrganization = poolStatement("donation_campaign", (db) =>
  db
    .select({ campaign: campaigns, org: organizations })
    .from(campaigns)
    .innerJoin(organizations, eq(organizations.id, campaigns.orgId))
    .where(eq(campaigns.id, ph("id")))
    .limit(1),
);

/** Never oversold: the tickets are taken only while they fit under the capacity. */
const reserveTickets = statement(campaigns, (db) =>
  db
    .update(campaigns)
    .set({ ticketsSold: sql`${campaigns.ticketsSold} + ${ph("tickets")}` })
    .where(and(eq(campaigns.id, ph("id")), sql`${campaigns.ticketsSold} + ${ph("tickets")} <= ${campaigns.ticketCapacity}`))
    .returning({ id: campaigns.id }),
);

const DONATION_COLUMNS = [
  "id",
  "orgId",
  "campaignId",
  "donorId",
  "amount",
  "currency",
  "email",
  "firstName",
  "lastName",
  "anonymous",
  "message",
  "dedication",
  "recurringInterval",
  "recurringPlanId",
  "tickets",
  "ticketOrder",
  "advantageCents",
  "coverFees",
  "feeCents",
  "clientIp",
  "locale",
  "remindIfUnfinished",
  "upsell",
  "receiptAddress",
  "giftAid",
  "giftAidDeclaration",
] as const;
type NewDonation = { [K in (typeof DONATION_COLUMNS)[number]]-?: (typeof donations.$inferInsert)[K] };

const insertDonation = statement(donations, (db) =>
  db
    .insert(donations)
    .values(Object.fromEntries(DONATION_COLUMNS.map((c) => [c, ph(c)])) as unknown as typeof donations.$inferInsert)
    .returning(),
);

const insertCreatedEvent = statement(donationEvents, (db) =>
  db.insert(donationEvents).values({ donationId: ph("donationId"), type: "donation.created", data: ph("data") }),
);

const setPaymentIntent = statement(donations, (db) =>
  db
    .update(donations)
    .set({ paymentIntentId: setTo("paymentIntentId") })
    .where(eq(donations.id, ph("id")))
    .returning(),
);

/**
 * Starts a gift. First the client: one with too many recent failed payments is refused (429),
 * and with Turnstile configured its captcha token must verify. Then the gift: validated against
 * the campaign, event tickets reserved (never oversold: one conditional UPDATE; one client holds at
 * most two orders' worth unpaid, see held-tickets.ts), the donor found
 * or created (an existing donor is not changed until a payment succeeds), the PENDING donation
 * recorded with the client's IP, then the processor asked for a PaymentIntent (or a
 * subscription for a recurring gift). The processor call
 * happens outside any transaction; if it fails, the donation is marked FAILED and its tickets
 * are released, so nothing is left half-made.
 */
export async function createDonation(
  db: Db,
  processor: PaymentProcessor,
  input: CreateDonationInput,
  request: DonationRequest,
): Promise<CreatedDonation> {
  await assertFewFailedPayments(db, request.clientIp);
  await assertCaptcha(input.captchaToken, request.clientIp);
  const [row] = await campaignWithOrganization(db, { id: input.campaignId });
  if (!row || row.campaign.status === "DRAFT") throw notFound("campaign_not_found", "Campaign not found");
  const { campaign, org } = row;
  if (!acceptsDonations(campaign, org) || !org.processorAccountId)
    throw conflict("not_accepting_donations", "Campaign is not accepting donations");
  assertDonationFitsCampaign(input, campaign, org);

  const recurring = input.recurringInterval ?? null;
  const feeCents = input.coverFees ? coverFeeCents(input.amount) : 0;
  const chargeAmountCents = input.amount + feeCents;
  const ticketOrder = campaign.type === "EVENT" ? ticketOrderOf(input, campaign, org) : null;
  const tickets = ticketOrder ? ticketOrder.reduce((n, l) => n + l.quantity, 0) : null;
  // The fair market value of the seats: the receipt's deductible amount is `amount − advantageCents`.
  const advantageCents = ticketOrder ? ticketOrder.reduce((n, l) => n + l.quantity * l.fairMarketValueCents, 0) : 0;

  const donation = await transaction(db, async (tx) => {
    if (tickets) {
      const reserved = await reserveTickets(tx, { id: campaign.id, tickets });
      if (reserved.length === 0) throw conflict("sold_out", "Sold out");
      // The campaign's row lock is held from here: no tier is oversold either.
      if (!(await reserveTierSeats(tx, campaign.id, ticketOrder!))) throw conflict("sold_out", "Sold out");
      await assertHeldTicketsWithinCap(tx, { campaign, clientIp: request.clientIp, tickets });
    }
    const donor = await findOrCreateDonor(tx, org.id, input.email, input.firstName ?? null, input.lastName ?? null);
    const id = newId("don");
    let recurringPlanId: string | null = null;
    if (recurring) {
      recurringPlanId = newId("rp");
      await tx.insert(recurringPlans).values({
        id: recurringPlanId,
        orgId: org.id,
        campaignId: campaign.id,
        donorId: donor.id,
        amount: input.amount,
        currency: org.currency,
        interval: recurring,
      });
    }
    const values: NewDonation = {
      id,
      orgId: org.id,
      campaignId: campaign.id,
      donorId: donor.id,
      amount: input.amount,
      currency: org.currency,
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      anonymous: input.anonymous ?? false,
      message: input.message ?? null,
      dedication: input.dedication ?? null,
      recurringInterval: recurring,
      recurringPlanId,
      tickets,
      ticketOrder,
      advantageCents,
      coverFees: input.coverFees ?? false,
      ...receiptFields(input),
      feeCents,
      clientIp: request.clientIp,
      locale: input.locale ?? chooseLocale({ acceptLanguage: request.acceptLanguage, orgDefault: org.defaultLocale }),
      remindIfUnfinished: input.remindIfUnfinished ?? false,
      upsell: input.upsell ?? null,
    };
    // Sent together: the driver pipelines them on the transaction's connection, in this order.
    const [[d]] = await Promise.all([
      insertDonation(tx, values),
      insertCreatedEvent(tx, { donationId: id, data: { amount: input.amount, chargeAmountCents } }),
    ]);
    await recordGivenDetails(tx, d, { emailOptIn: input.emailOptIn, address: input.address });
    return d;
  });

  try {
    const env = getEnv();
    const base = {
      donationId: donation.id,
      orgId: org.id,
      campaignId: campaign.id,
      currency: org.currency,
      destinationAccountId: org.processorAccountId,
    };
    if (recurring) {
      const sub = await processor.createSubscription({
        ...base,
        campaignTitle: campaign.title,
        productId: campaign.processorProductId,
        amountCents: chargeAmountCents,
        ...processorIntervalOf(recurring),
        applicationFeePercent: env.PLATFORM_FEE_BPS > 0 ? env.PLATFORM_FEE_BPS / 100 : null,
        email: input.email,
        name: [input.firstName, input.lastName].filter(Boolean).join(" ") || null,
      });
      const updated = await db.transaction(async (tx) => {
        if (!campaign.processorProductId) {
          await tx.update(campaigns).set({ processorProductId: sub.productId }).where(eq(campaigns.id, campaign.id));
        }
        await tx.update(recurringPlans).set({ subscriptionId: sub.subscriptionId }).where(eq(recurringPlans.id, donation.recurringPlanId!));
        const [d] = await tx
          .update(donations)
          .set({ subscriptionId: sub.subscriptionId, paymentIntentId: sub.paymentIntentId })
          .where(eq(donations.id, donation.id))
          .returning();
        return d;
      });
      return { donation: updated, clientSecret: sub.clientSecret, subscriptionId: sub.subscriptionId, chargeAmountCents };
    }
    const pi = await processor.createPaymentIntent({
      ...base,
      amountCents: chargeAmountCents,
      applicationFeeCents: platformFeeCents(chargeAmountCents, env.PLATFORM_FEE_BPS),
      email: input.email,
      description: `${campaign.title} (${org.name})`,
    });
    const [updated] = await setPaymentIntent(db, { id: donation.id, paymentIntentId: pi.paymentIntentId });
    return { donation: updated, clientSecret: pi.clientSecret, subscriptionId: null, chargeAmountCents };
  } catch (err) {
    log.error("processor call failed; donation marked FAILED", { donationId: donation.id, ...errorFields(err) });
    await abandon(db, donation);
    throw processorUnavailable();
  }
}

/** Undo a donation whose payment could not be started: FAILED, tickets released, plan canceled. */
async function abandon(db: Db, donation: Donation) {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(donations).where(eq(donations.id, donation.id)).for("update");
    if (locked.status !== "PENDING") return;
    await moveDonation(tx, locked, "FAILED", { timelineType: "donation.abandoned", failureReason: "Payment processor unavailable" });
    if (locked.recurringPlanId) {
      await tx
        .update(recurringPlans)
        .set({ status: "CANCELED", canceledAt: sql`now()` })
        .where(eq(recurringPlans.id, locked.recurringPlanId));
    }
  });
}
