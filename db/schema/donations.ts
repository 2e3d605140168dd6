import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { campaigns } from "./campaigns";
import { organizations } from "./organizations";

export const donationStatusEnum = pgEnum("donation_status", ["PENDING", "SUCCEEDED", "FAILED", "DISPUTED", "REFUNDED"]);
export const recurringIntervalEnum = pgEnum("recurring_interval", ["MONTH", "YEAR"]);
export type DonationStatus = (typeof donationStatusEnum.enumValues)[number];

export type Dedication = {
  type: "IN_HONOR" | "IN_MEMORY";
  honoreeName: string;
  notifyEmail: string | null;
  message: string | null;
};

/** One donor per organization and (case-insensitive) email; totals are SUCCEEDED donations only. */
export const donors = pgTable(
  "donors",
  {
    id: text().primaryKey(),
    orgId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text().notNull(),
    firstName: text(),
    lastName: text(),
    totalGivenCents: bigint({ mode: "number" }).notNull().default(0),
    donationCount: integer().notNull().default(0),
    firstDonationAt: timestamp({ withTimezone: true }),
    lastDonationAt: timestamp({ withTimezone: true }),
    /** Set when the donor's personal fields were anonymized (their money records stay). */
    erasedAt: timestamp({ withTimezone: true }),
    /** The language of the donor's last gift (en, es, fr, de): their emails are written in it. */
    locale: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("donors_org_email_key").on(t.orgId, sql`lower(${t.email})`),
    // The donors list's sorts (GET /api/orgs/:idOrSlug/donors): biggest givers, newest donors.
    index("donors_org_total_idx").on(t.orgId, t.totalGivenCents, t.id),
    index("donors_org_created_idx").on(t.orgId, t.createdAt, t.id),
  ],
);

export const donations = pgTable(
  "donations",
  {
    id: text().primaryKey(),
    orgId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    campaignId: text()
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    donorId: text()
      .notNull()
      .references(() => donors.id),
    amount: integer().notNull(),
    currency: text().notNull().default("usd"),
    status: donationStatusEnum().notNull().default("PENDING"),
    email: text().notNull(),
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
    paymentFailedAt: timestamp({ withTimezone: true }),
    /** The language the donor gave in (en, es, fr, de): the receipt and its follow-ups use it. */
    locale: text(),
    /** The rate-limit key of the client that started the donation (IPv6 grouped per /64), for the card-testing defence. */
    clientIp: text(),
    disputeReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    succeededAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("donations_org_created_order_idx").on(t.orgId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("donations_campaign_status_idx").on(t.campaignId, t.status),
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
    // Ticket holds and abandoned checkouts: the worker finds old PENDING donations.
    index("donations_pending_created_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

/** Processor event IDs already applied; written in the same transaction as the event's effects. */
export const processedEvents = pgTable("processed_events", {
  id: text().primaryKey(),
  type: text().notNull(),
  processedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const outboxStatusEnum = pgEnum("outbox_status", ["PENDING", "SENT", "FAILED"]);
export type OutboxKind = "email" | "webhook";

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
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** A worker's claim: others skip the row until then; a crashed worker's claim just expires. */
    leaseUntil: timestamp({ withTimezone: true }),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
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
    orgId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    campaignId: text()
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    donorId: text()
      .notNull()
      .references(() => donors.id),
    subscriptionId: text(),
    amount: integer().notNull(),
    currency: text().notNull(),
    interval: recurringIntervalEnum().notNull(),
    status: recurringPlanStatusEnum().notNull().default("INCOMPLETE"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    canceledAt: timestamp({ withTimezone: true }),
    /** Who ended the plan: `donor` (their account page), `staff` (dashboard/API) or `processor` (e.g. failed payments). */
    canceledBy: text().$type<"donor" | "staff" | "processor">(),
  },
  (t) => [
    uniqueIndex("recurring_plans_subscription_key").on(t.subscriptionId),
    index("recurring_plans_org_created_idx").on(t.orgId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("recurring_plans_donor_idx").on(t.donorId),
  ],
);

/** What happened to a donation, in order: the timeline of GET /api/donations/:id. */
export const donationEvents = pgTable(
  "donation_events",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    donationId: text()
      .notNull()
      .references(() => donations.id, { onDelete: "cascade" }),
    type: text().notNull(),
    processorEventId: text(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("donation_events_donation_idx").on(t.donationId, t.id)],
);

/** Payouts of connected accounts, recorded from `payout.paid` / `payout.failed`. */
export const payouts = pgTable(
  "payouts",
  {
    id: text().primaryKey(),
    orgId: text()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    amount: bigint({ mode: "number" }).notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    arrivalDate: timestamp({ withTimezone: true }),
    failureMessage: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payouts_org_idx").on(t.orgId, t.createdAt.desc().nullsFirst())],
);

export type Donation = typeof donations.$inferSelect;
export type RecurringPlan = typeof recurringPlans.$inferSelect;
export type Donor = typeof donors.$inferSelect;
