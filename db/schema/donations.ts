import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamps, timestamptz } from "./columns";
import { campaigns } from "./campaigns";
import { organizations } from "./organizations";

export const donationStatusEnum = pgEnum("donation_status", ["PENDING", "SUCCEEDED", "FAILED", "DISPUTED", "REFUNDED", "VOIDED"]);
export const recurringIntervalEnum = pgEnum("recurring_interval", ["WEEK", "MONTH", "QUARTER", "YEAR"]);
/** Where a gift came from: the donate form or API (ONLINE), recorded by staff (OFFLINE), or an import (IMPORT). */
export const donationSourceEnum = pgEnum("donation_source", ["ONLINE", "OFFLINE", "IMPORT"]);
/** How the money arrived; online gifts are CARD. */
export const donationMethodEnum = pgEnum("donation_method", [
  "CARD",
  "CASH",
  "CHEQUE",
  "BANK_TRANSFER",
  "DAF",
  "STOCK",
  "IN_KIND",
  "OTHER",
]);
export type DonationSource = (typeof donationSourceEnum.enumValues)[number];
export type DonationMethod = (typeof donationMethodEnum.enumValues)[number];

/** A UK taxpayer's Gift Aid declaration, as given with the gift (HMRC's claim schedule reads it). */
export type GiftAidDeclaration = {
  title: string | null;
  firstName: string;
  lastName: string;
  houseNameOrNumber: string;
  postcode: string;
  /** The declaration text the donor agreed to. */
  statement: string;
  declaredAt: string;
};
export type DonationStatus = (typeof donationStatusEnum.enumValues)[number];

/** Where a donor record came from: a gift on the donate form, one recorded by staff, or an import. */
export const donorSourceEnum = pgEnum("donor_source", ["ONLINE", "OFFLINE", "IMPORT"]);
export type DonorSource = (typeof donorSourceEnum.enumValues)[number];

/** A postal address; `country` is an ISO 3166-1 alpha-2 code. */
export type PostalAddress = {
  line1: string;
  line2: string | null;
  city: string;
  region: string | null;
  postalCode: string | null;
  country: string;
};

/** One tier of an event order: price and fair market value as they were when it was bought. */
export type TicketOrderLine = {
  tierId: string;
  tierName: string;
  quantity: number;
  priceCents: number;
  fairMarketValueCents: number;
  attendees: { name: string; email: string | null }[];
};

export type Dedication = {
  type: "IN_HONOR" | "IN_MEMORY";
  honoreeName: string;
  notifyEmail: string | null;
  message: string | null;
};

/**
 * One donor per organization and (case-insensitive) email; totals are SUCCEEDED donations only.
 * Offline gifts may come from a donor without email (cash at the gala): such donors have a null
 * email, are never matched, and get no emails until staff add an address.
 */
export const donors = pgTable(
  "donors",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    email: text(),
    firstName: text(),
    lastName: text(),
    totalGivenCents: bigint({ mode: "number" }).notNull().default(0),
    donationCount: integer().notNull().default(0),
    firstDonationAt: timestamptz(),
    lastDonationAt: timestamptz(),
    /** Set when the donor's personal fields were anonymized (their money records stay). */
    erasedAt: timestamptz(),
    /** The language of the donor's last gift (en, es, fr, de): their emails are written in it. */
    locale: text(),
    phone: text(),
    address: jsonb().$type<PostalAddress>(),
    /** Staff labels, unique and in the order given; GIN-indexed for the list's tag filter. */
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Whether the donor agreed to hear from the organization by email (asked on the donate form). */
    emailOptIn: boolean().notNull().default(false),
    source: donorSourceEnum().notNull().default("ONLINE"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("donors_org_email_key").on(t.orgId, sql`lower(${t.email})`),
    index("donors_tags_idx").using("gin", t.tags),
    // The donors list's sorts (GET /api/orgs/:idOrSlug/donors): biggest givers, newest donors.
    index("donors_org_total_idx").on(t.orgId, t.totalGivenCents, t.id),
    index("donors_org_created_idx").on(t.orgId, t.createdAt, t.id),
  ],
);

/**
 * Whose gift it is and to what, for donations and recurring plans alike: they go with their
 * organization and campaign, and a donor who has any cannot be deleted (erasure anonymizes instead).
 */
const giftParties = () => ({
  orgId: belongsTo(() => organizations.id),
  campaignId: belongsTo(() => campaigns.id),
  donorId: text()
    .notNull()
    .references(() => donors.id),
});

export const donations = pgTable(
  "donations",
  {
    id: text().primaryKey(),
    ...giftParties(),
    amount: integer().notNull(),
    currency: text().notNull().default("usd"),
    status: donationStatusEnum().notNull().default("PENDING"),
    /** The donor's email as given with the gift; null only for an offline gift from a donor without email. */
    email: text(),
    firstName: text(),
    lastName: text(),
    anonymous: boolean().notNull().default(false),
    message: text(),
    dedication: jsonb().$type<Dedication>(),
    recurringInterval: recurringIntervalEnum(),
    recurringPlanId: text(),
    subscriptionId: text(),
    isRenewal: boolean().notNull().default(false),
    invoiceId: text(),
    tickets: integer(),
    /** An event order: the seats bought per tier, with the attendees named (see TicketOrderLine). */
    ticketOrder: jsonb().$type<TicketOrderLine[]>(),
    coverFees: boolean().notNull().default(false),
    feeCents: integer().notNull().default(0),
    matchedAmountCents: integer().notNull().default(0),
    paymentIntentId: text(),
    chargeId: text(),
    failureReason: text(),
    /**
     * When a declined or canceled payment found this donation PENDING (the card-testing defence
     * counts these per client); null when none did.
     */
    paymentFailedAt: timestamptz(),
    /** The language the donor gave in (en, es, fr, de): the receipt and its follow-ups use it. */
    locale: text(),
    /** The rate-limit key of the client that started the donation (IPv6 grouped per /64), for the card-testing defence. */
    clientIp: text(),
    disputeReason: text(),
    source: donationSourceEnum().notNull().default("ONLINE"),
    method: donationMethodEnum().notNull().default("CARD"),
    /** The cheque number, transfer reference, DAF grant ID…; null where none. */
    reference: text(),
    /** The fair market value of what the donor received; the deductible amount is `amount − advantageCents`. */
    advantageCents: integer().notNull().default(0),
    /**
     * `{year}-{seq}`: given in the transaction that first makes the gift SUCCEEDED (never to an
     * imported gift), from the organization's counter for that year (receipt_counters), so the
     * numbers are gapless; kept forever, also when the gift is refunded or voided.
     */
    receiptNumber: text(),
    /** The donor's address when the gift was made, as its receipt prints it (null when none was given). */
    receiptAddress: jsonb().$type<PostalAddress>(),
    giftAid: boolean().notNull().default(false),
    giftAidDeclaration: jsonb().$type<GiftAidDeclaration>(),
    voidReason: text(),
    voidedAt: timestamptz(),
    /** The donor ticked "Remind me if I don't finish": one reminder if the gift is still unpaid ABANDONED_REMINDER_MINUTES later. */
    remindIfUnfinished: boolean().notNull().default(false),
    /** When that reminder was queued (at most once). */
    unfinishedReminderAt: timestamptz(),
    /** The monthly upsell on the donate form: offered, accepted (this is the monthly gift) or declined; null when not offered. */
    upsell: text().$type<"OFFERED" | "ACCEPTED" | "DECLINED">(),
    /** The gift's ID on the platform it was imported from; unique per organization, so a file imported twice adds nothing. */
    externalId: text(),
    /** The import that created this gift (its undo removes it); null for gifts made here. */
    importId: text(),
    ...timestamps(),
    succeededAt: timestamptz(),
  },
  (t) => [
    index("donations_org_created_order_idx").on(t.orgId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("donations_campaign_status_idx").on(t.campaignId, t.status),
    uniqueIndex("donations_org_receipt_number_key")
      .on(t.orgId, t.receiptNumber)
      .where(sql`${t.receiptNumber} is not null`),
    index("donations_donor_idx").on(t.donorId),
    // A recurring plan's donations (its SUCCEEDED count and total in the plans list).
    index("donations_recurring_plan_idx")
      .on(t.recurringPlanId)
      .where(sql`${t.recurringPlanId} is not null`),
    uniqueIndex("donations_payment_intent_key").on(t.paymentIntentId),
    uniqueIndex("donations_invoice_key").on(t.invoiceId),
    index("donations_subscription_idx").on(t.subscriptionId),
    index("donations_charge_idx").on(t.chargeId),
    // The card-testing defence counts a client's recently failed payments.
    index("donations_client_payment_failed_idx")
      .on(t.clientIp, t.paymentFailedAt)
      .where(sql`${t.paymentFailedAt} is not null and ${t.clientIp} is not null`),
    // Each client's unpaid ticket holds on a campaign (the cap on held seats per client).
    index("donations_client_held_tickets_idx")
      .on(t.campaignId, t.clientIp)
      .where(sql`${t.status} = 'PENDING' and ${t.tickets} is not null and ${t.clientIp} is not null`),
    // Unfinished-gift reminders: the worker finds ticked, unreminded gifts.
    index("donations_unfinished_reminder_idx")
      .on(t.createdAt)
      .where(sql`${t.remindIfUnfinished} and ${t.unfinishedReminderAt} is null`),
    // Ticket holds and abandoned checkouts: the worker finds old PENDING donations.
    uniqueIndex("donations_org_external_id_key")
      .on(t.orgId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    index("donations_import_idx")
      .on(t.importId)
      .where(sql`${t.importId} is not null`),
    index("donations_pending_created_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * The last receipt number given per organization and calendar year. Taking a number updates this
 * row in the transaction of the gift's success, so concurrent gifts (on any instance) queue on
 * its lock and a rolled-back gift gives its number back: the sequence has no gaps.
 */
export const receiptCounters = pgTable(
  "receipt_counters",
  {
    orgId: belongsTo(() => organizations.id),
    year: integer().notNull(),
    lastSeq: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.year] })],
);

/** Processor event IDs already applied; written in the same transaction as the event's effects. */
export const processedEvents = pgTable("processed_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  processedAt: timestamptz().notNull().defaultNow(),
});

export const outboxStatusEnum = pgEnum("outbox_status", ["PENDING", "SENT", "FAILED"]);
/** `donor-sign-in`: a donor's request for a sign-in link, looked up by the worker after the request was answered. */
export type OutboxKind = "email" | "webhook" | "donor-sign-in";

/**
 * Side effects that leave the process (emails, outbound webhooks) are rows here, written in the
 * transaction of the state change that causes them and delivered by the worker after commit.
 */
export const outbox = pgTable(
  "outbox",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    kind: text().notNull(),
    orgId: text(),
    dedupeKey: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: outboxStatusEnum().notNull().default("PENDING"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamptz().notNull().defaultNow(),
    /** A worker's claim: others skip the row until then; a crashed worker's claim just expires. */
    leaseUntil: timestamptz(),
    lastError: text(),
    createdAt: createdAt(),
    sentAt: timestamptz(),
  },
  (t) => [
    uniqueIndex("outbox_dedupe_key").on(t.dedupeKey),
    index("outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

export const recurringPlanStatusEnum = pgEnum("recurring_plan_status", ["INCOMPLETE", "ACTIVE", "PAST_DUE", "CANCELED"]);

/** A recurring gift: one processor subscription, its first donation and every renewal. */
export const recurringPlans = pgTable(
  "recurring_plans",
  {
    id: text().primaryKey(),
    ...giftParties(),
    subscriptionId: text(),
    amount: integer().notNull(),
    currency: text().notNull(),
    interval: recurringIntervalEnum().notNull(),
    status: recurringPlanStatusEnum().notNull().default("INCOMPLETE"),
    ...timestamps(),
    canceledAt: timestamptz(),
    /** Who ended the plan: `donor` (their account page), `staff` (dashboard/API) or `processor` (e.g. failed payments). */
    canceledBy: text().$type<"donor" | "staff" | "processor">(),
    /** PAST_DUE: since when, and the processor's next attempt at the unpaid invoice (null when it won't retry). */
    pastDueAt: timestamptz(),
    nextRetryAt: timestamptz(),
    /** The card the processor last charged for it (from its events); null until one is reported. */
    cardBrand: text(),
    cardLast4: text(),
    cardExpMonth: integer(),
    cardExpYear: integer(),
    /** When the processor charged that card: a late event about an older charge doesn't replace a newer card. */
    cardSeenAt: timestamptz(),
    /** The card expiry (`YYYY-MM`) the donor was last reminded of: one reminder per card. */
    cardExpiryNoticeFor: text(),
  },
  (t) => [
    uniqueIndex("recurring_plans_subscription_key").on(t.subscriptionId),
    index("recurring_plans_org_created_idx").on(t.orgId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("recurring_plans_donor_idx").on(t.donorId),
  ],
);

/**
 * A renewal invoice the processor could not collect, once per invoice ID: its attempts, the next
 * retry, and how it ended (paid later: recovered; the processor gave up: lost). Drives the
 * past-due emails (one per invoice) and the recurring report.
 */
export const planInvoiceFailures = pgTable(
  "plan_invoice_failures",
  {
    invoiceId: text().primaryKey(),
    planId: belongsTo(() => recurringPlans.id),
    orgId: belongsTo(() => organizations.id),
    amountDueCents: integer().notNull(),
    currency: text().notNull(),
    attemptCount: integer().notNull().default(1),
    nextRetryAt: timestamptz(),
    failureMessage: text(),
    failedAt: timestamptz().notNull().defaultNow(),
    recoveredAt: timestamptz(),
    lostAt: timestamptz(),
  },
  (t) => [index("plan_invoice_failures_plan_idx").on(t.planId), index("plan_invoice_failures_org_idx").on(t.orgId, t.failedAt)],
);

/** Donors who asked for no more unfinished-gift reminders from an organization (by lower-cased email). */
export const reminderOptOuts = pgTable(
  "reminder_opt_outs",
  {
    orgId: belongsTo(() => organizations.id),
    email: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.email] })],
);

/** What happened to a donation, in order: the timeline of GET /api/donations/:id. */
export const donationEvents = pgTable(
  "donation_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    donationId: belongsTo(() => donations.id),
    type: text().notNull(),
    processorEventId: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("donation_events_donation_idx").on(t.donationId, t.id)],
);

/** Payouts of connected accounts, recorded from `payout.paid` / `payout.failed`. */
export const payouts = pgTable(
  "payouts",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    amount: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    arrivalDate: timestamptz(),
    failureMessage: text(),
    ...timestamps(),
  },
  (t) => [index("payouts_org_idx").on(t.orgId, t.createdAt.desc().nullsFirst())],
);

export type Donation = typeof donations.$inferSelect;
export type RecurringPlan = typeof recurringPlans.$inferSelect;
export type Donor = typeof donors.$inferSelect;
export type PlanInvoiceFailure = typeof planInvoiceFailures.$inferSelect;
