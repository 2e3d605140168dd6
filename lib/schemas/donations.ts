import { z } from "zod";
import { LOCALES } from "@/lib/i18n/locales";
import type { DonationCursor } from "@/db/queries/donations";
import type { Donation } from "@/db/schema";
import { addressInput, giftAidInput } from "./address";
import { AMOUNT_LIMITS, CAPTCHA_TOKEN_MAX, RECURRING_INTERVALS, TEXT_LIMITS, TICKETS_LIMITS, UPSELL_OUTCOMES } from "./donation-limits";
import { email, iso, isoDateTime, plainText } from "./common";

export const DONATION_STATUSES = ["PENDING", "SUCCEEDED", "FAILED", "DISPUTED", "REFUNDED", "VOIDED"] as const;
/** Gifts whose payment went through (or that staff recorded), whatever happened to them since: what the dashboard lists by default. */
export const COMPLETED_DONATION_STATUSES = ["SUCCEEDED", "DISPUTED", "REFUNDED", "VOIDED"] as const;
export const DONATION_SOURCES = ["ONLINE", "OFFLINE", "IMPORT"] as const;
export const DONATION_METHODS = ["CARD", "CASH", "CHEQUE", "BANK_TRANSFER", "DAF", "STOCK", "IN_KIND", "OTHER"] as const;
/** The methods staff record an offline gift with (CARD is the donate form's). */
export const OFFLINE_METHODS = ["CASH", "CHEQUE", "BANK_TRANSFER", "DAF", "STOCK", "IN_KIND", "OTHER"] as const;
export const RECEIPT_STATUSES = ["NONE", "ISSUED", "VOID"] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/**
 * NONE before the gift has a number (and for imported gifts, receipted elsewhere); VOID once a
 * numbered gift was refunded, lost its dispute (REFUNDED) or was voided; ISSUED otherwise.
 */
export function receiptStatusOf(d: Pick<Donation, "receiptNumber" | "status">): ReceiptStatus {
  if (!d.receiptNumber) return "NONE";
  return d.status === "REFUNDED" || d.status === "VOIDED" ? "VOID" : "ISSUED";
}

/** What the donor may deduct: the gift less the fair market value of what they received. */
export const deductibleCents = (d: Pick<Donation, "amount" | "advantageCents">) => Math.max(0, d.amount - d.advantageCents);
/** Checkouts not (or not yet) paid: started and never finished, or failed. */
export const INCOMPLETE_DONATION_STATUSES = ["PENDING", "FAILED"] as const;
// Plain constants, so the donate form can use them without loading this module (and zod).
export { RECURRING_INTERVALS, UPSELL_OUTCOMES, type RecurringInterval } from "./donation-limits";

const name = plainText(TEXT_LIMITS.name).transform((s) => (s === "" ? null : s));

export const dedicationInput = z
  .object({
    type: z.enum(["IN_HONOR", "IN_MEMORY"]),
    honoreeName: plainText(TEXT_LIMITS.honoreeName, 1),
    notifyEmail: email.nullish().transform((v) => v ?? null),
    message: plainText(TEXT_LIMITS.dedicationMessage)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .meta({ id: "DedicationInput" });

/** A number of seats of an event's single tier. */
export const ticketCountInput = z.number().int().min(TICKETS_LIMITS.min).max(TICKETS_LIMITS.max);

export const ticketOrderLineInput = z
  .object({
    tierId: z.string().min(1).max(100),
    quantity: z.number().int().min(TICKETS_LIMITS.min).max(TICKETS_LIMITS.max),
    attendees: z
      .array(
        z.object({
          name: plainText(140, 1),
          email: email.nullish().transform((v) => v ?? null),
        }),
      )
      .max(100)
      .optional(),
  })
  .refine((l) => (l.attendees?.length ?? 0) <= l.quantity, {
    message: "At most one attendee per ticket",
    path: ["attendees"],
    params: { code: "too_many_attendees" },
  })
  .meta({ id: "TicketOrderLineInput" });

/** Public donation form. Rules that depend on the campaign are checked by the service. */
export const createDonationBody = z
  .object({
    campaignId: z.string().min(1).max(100),
    amount: z
      .number()
      .int()
      .min(AMOUNT_LIMITS.min, `Number must be greater than or equal to ${AMOUNT_LIMITS.min}`)
      .max(AMOUNT_LIMITS.max)
      .meta({
        description:
          "The gift in the organization's currency, in its minor unit (cents for usd, yen for jpy: no decimals for zero-decimal currencies). The minimum is one whole unit of the currency (100 for usd or eur, 1000 for bhd) and 100 for zero-decimal currencies (¥100, ₩100), or the campaign's `minAmountCents` if higher.",
      }),
    currency: z
      .string()
      .regex(/^[a-zA-Z]{3}$/, "Must be a three-letter ISO currency code")
      .transform((s) => s.toLowerCase())
      .optional(),
    email,
    firstName: name.nullish(),
    lastName: name.nullish(),
    anonymous: z.boolean().optional(),
    message: plainText(TEXT_LIMITS.message)
      .nullish()
      .transform((v) => (v ? v : null)),
    dedication: dedicationInput.nullish(),
    recurringInterval: z.enum(RECURRING_INTERVALS).nullish(),
    tickets: z
      .union([
        ticketCountInput,
        z
          .array(ticketOrderLineInput)
          .min(1)
          .max(20)
          .refine((lines) => new Set(lines.map((l) => l.tierId)).size === lines.length, {
            message: "Each tier at most once",
            params: { code: "duplicate_tier" },
          }),
      ])
      .nullish()
      .meta({
        description:
          "EVENT campaigns: the seats per tier (`[{ tierId, quantity, attendees? }]`, attendees in seat order, at most `quantity`), or a number of seats of the campaign's single tier. `amount` must be the tiers' price × quantity plus `extraAmount`.",
      }),
    extraAmount: z.number().int().min(0).max(AMOUNT_LIMITS.max).optional().meta({
      description: "EVENT campaigns: an extra gift on top of the tickets, included in `amount` (fully deductible).",
    }),
    coverFees: z.boolean().optional(),
    emailOptIn: z
      .boolean()
      .optional()
      .meta({ description: "The donor agrees to hear from the organization by email; recorded on the donor once the payment succeeds." }),
    address: addressInput.nullish().meta({
      description:
        "The donor's postal address, printed on the receipt; required when the campaign's `collectAddress` is on or the organization's `receiptProfile` is CA. Recorded on the donor once the payment succeeds.",
    }),
    remindIfUnfinished: z.boolean().optional().meta({
      description:
        'The donor ticked "Remind me if I don\'t finish": one email `ABANDONED_REMINDER_MINUTES` later (60 by default) if the gift is still unpaid, with a link that reopens the form with the same gift. Off by default.',
    }),
    upsell: z.enum(UPSELL_OUTCOMES).nullish().meta({
      description:
        "The form's monthly upsell, as the donor left it: `ACCEPTED` (this is the smaller monthly gift offered after a one-time choice; needs `recurringInterval` MONTH), `DECLINED` (a one-time gift after the offer) or `OFFERED` (shown, not answered). Only on campaigns with `monthlyUpsell`.",
    }),
    locale: z.enum(LOCALES).optional().meta({
      description:
        "The language the donor gave in (en, es, fr, de): their receipt and later emails are written in it. Without it, the request's `Accept-Language`, else the organization's `defaultLocale`.",
    }),
    giftAid: giftAidInput.nullish().meta({
      description: "A UK taxpayer's Gift Aid declaration (organizations whose `receiptProfile` is UK only): home address and postcode.",
    }),
    captchaToken: z
      .string()
      .min(1)
      .max(CAPTCHA_TOKEN_MAX)
      .meta({ description: "The Cloudflare Turnstile token of the donate form; required when the server has Turnstile configured." })
      .nullish(),
  })
  .meta({ id: "CreateDonation" });

export type CreateDonationInput = z.output<typeof createDonationBody>;

export const dedicationSchema = z
  .object({
    type: z.enum(["IN_HONOR", "IN_MEMORY"]),
    honoreeName: z.string(),
    notifyEmail: z.string().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: "Dedication" });

export const donationSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    campaignId: z.string(),
    donorId: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    status: z.enum(DONATION_STATUSES),
    email: z.string().nullable().meta({ description: "Null only for an offline gift from a donor recorded without email." }),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    anonymous: z.boolean(),
    message: z.string().nullable(),
    dedication: dedicationSchema.nullable(),
    recurringInterval: z.enum(RECURRING_INTERVALS).nullable(),
    recurringPlanId: z.string().nullable(),
    subscriptionId: z.string().nullable(),
    isRenewal: z.boolean(),
    tickets: z.number().int().nullable(),
    coverFees: z.boolean(),
    feeCents: z.number().int(),
    matchedAmountCents: z.number().int(),
    paymentIntentId: z.string().nullable(),
    failureReason: z.string().nullable(),
    disputeReason: z.string().nullable(),
    source: z.enum(DONATION_SOURCES).meta({ description: "ONLINE (donate form or API), OFFLINE (recorded by staff) or IMPORT." }),
    method: z.enum(DONATION_METHODS).meta({ description: "How the money arrived; CARD for online gifts." }),
    reference: z.string().nullable().meta({ description: "Cheque number, transfer reference, grant ID…; null where none." }),
    externalId: z.string().nullable().meta({ description: "An imported gift's ID on the platform it came from; null otherwise." }),
    advantageCents: z.number().int().meta({ description: "Fair market value of what the donor received in return (tickets, goods)." }),
    deductibleAmountCents: z
      .number()
      .int()
      .meta({ description: "`amount − advantageCents`: what the receipt states as deductible (eligible)." }),
    receiptNumber: z
      .string()
      .nullable()
      .meta({ description: "`{year}-{seq}`, gapless per organization and year of `succeededAt`; null before the gift succeeded." }),
    receiptStatus: z
      .enum(RECEIPT_STATUSES)
      .meta({ description: "NONE (no number), ISSUED, or VOID (refunded or voided; the number is kept)." }),
    giftAid: z.boolean().meta({ description: "The donor made a UK Gift Aid declaration with this gift." }),
    voidReason: z.string().nullable(),
    voidedAt: z.string().nullable(),
    upsell: z
      .enum(UPSELL_OUTCOMES)
      .nullable()
      .meta({ description: "The donate form's monthly upsell for this gift; null when it wasn't offered." }),
    createdAt: z.string(),
    updatedAt: z.string(),
    succeededAt: z.string().nullable(),
  })
  .meta({ id: "Donation" });

export const createdDonationSchema = donationSchema
  .extend({
    clientSecret: z.string(),
    subscriptionId: z.string().nullable(),
    /** What the card will be charged: the gift plus the covered fees. */
    chargeAmountCents: z.number().int(),
  })
  .meta({ id: "CreatedDonation" });

export type DonationView = z.output<typeof donationSchema>;

export function serializeDonation(d: Donation): DonationView {
  return {
    id: d.id,
    orgId: d.orgId,
    campaignId: d.campaignId,
    donorId: d.donorId,
    amount: d.amount,
    currency: d.currency,
    status: d.status,
    email: d.email,
    firstName: d.firstName,
    lastName: d.lastName,
    anonymous: d.anonymous,
    message: d.message,
    dedication: d.dedication ?? null,
    recurringInterval: d.recurringInterval,
    recurringPlanId: d.recurringPlanId,
    subscriptionId: d.subscriptionId,
    isRenewal: d.isRenewal,
    tickets: d.tickets,
    coverFees: d.coverFees,
    feeCents: d.feeCents,
    matchedAmountCents: d.matchedAmountCents,
    paymentIntentId: d.paymentIntentId,
    failureReason: d.failureReason,
    disputeReason: d.disputeReason,
    source: d.source,
    method: d.method,
    reference: d.reference,
    externalId: d.externalId,
    advantageCents: d.advantageCents,
    deductibleAmountCents: deductibleCents(d),
    receiptNumber: d.receiptNumber,
    receiptStatus: receiptStatusOf(d),
    giftAid: d.giftAid,
    voidReason: d.voidReason,
    voidedAt: iso(d.voidedAt),
    upsell: d.upsell ?? null,
    createdAt: iso(d.createdAt)!,
    updatedAt: iso(d.updatedAt)!,
    succeededAt: iso(d.succeededAt),
  };
}

// ---------------------------------------------------------------------------------------------
// Operations: the donations list, its cursor, its CSV export, and one donation's timeline.

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const INVALID_CURSOR = "Invalid cursor";

/** `base64url(JSON.stringify({ t: "2030-01-31T12:00:00.123456Z", id: "don_…" }))`: opaque to clients. */
export function encodeDonationCursor(c: DonationCursor): string {
  return Buffer.from(JSON.stringify({ t: c.createdAt, id: c.id }), "utf8").toString("base64url");
}

export function decodeDonationCursor(raw: string): DonationCursor | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(raw)) return null;
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown;
    if (typeof v !== "object" || v === null) return null;
    const { t, id } = v as Record<string, unknown>;
    // A real instant: Date.parse rolls 2021-02-31 over to March, so the round trip must match.
    if (typeof t !== "string" || !CURSOR_TIME.test(t)) return null;
    const ms = Date.parse(t);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== t.slice(0, 19)) return null;
    if (typeof id !== "string" || id.length === 0 || id.length > 100 || id.includes("\u0000")) return null;
    return { createdAt: t, id };
  } catch {
    return null;
  }
}

const cursorParam = z
  .string()
  .meta({ description: "`nextCursor` of the previous page (opaque); absent for the first page." })
  .transform((s, ctx) => {
    const cursor = decodeDonationCursor(s);
    if (!cursor) {
      ctx.addIssue({ code: "custom", message: INVALID_CURSOR });
      return z.NEVER;
    }
    return cursor;
  });

/** `q`: case-insensitive substring; blank means no search. */
export const searchParam = z
  .string()
  .max(200)
  .meta({ description: "Case-insensitive substring of the email, first name or last name." })
  .transform((s) => s.trim() || undefined);

const donationStatus = z.enum(DONATION_STATUSES);

/** `status`: one status, or several separated by commas (`SUCCEEDED,DISPUTED,REFUNDED`); each is checked. */
const statusFilter = z
  .string()
  .meta({
    description: "One status, or several separated by commas (`SUCCEEDED,DISPUTED,REFUNDED`). Without it, every status is listed.",
    example: "SUCCEEDED,DISPUTED,REFUNDED",
  })
  .transform((value, ctx) => {
    const parts = value.split(",").map((p) => p.trim());
    const statuses: (typeof DONATION_STATUSES)[number][] = [];
    for (const part of parts) {
      const parsed = donationStatus.safeParse(part);
      if (parsed.success) statuses.push(parsed.data);
      else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, input: part, path: [] } as Parameters<typeof ctx.addIssue>[0]);
    }
    return [...new Set(statuses)];
  });

/** The filters shared by the donations list and its CSV export. */
const donationFilterFields = {
  status: statusFilter.optional(),
  campaignId: z.string().min(1).max(100).optional(),
  from: isoDateTime.meta({ description: "Created at or after this time (inclusive)." }).optional(),
  to: isoDateTime.meta({ description: "Created before this time (exclusive)." }).optional(),
  q: searchParam.optional(),
};

const fromBeforeTo = (v: { from?: string; to?: string }) => !v.from || !v.to || Date.parse(v.from) < Date.parse(v.to);
const FROM_TO = { message: "Must be after `from`", path: ["to"] };

export const DONATION_LIST_DEFAULT_LIMIT = 25;

export const listDonationsQuery = z
  .object({
    ...donationFilterFields,
    limit: z.coerce.number().int().min(1).max(100).default(DONATION_LIST_DEFAULT_LIMIT),
    cursor: cursorParam.optional(),
  })
  .refine(fromBeforeTo, FROM_TO);

export const exportDonationsQuery = z.object(donationFilterFields).refine(fromBeforeTo, FROM_TO);

export const cursorPaginationSchema = z
  .object({
    limit: z.number().int(),
    nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
  })
  .meta({ id: "CursorPagination" });

export const donationListSchema = z.object({ data: z.array(donationSchema), pagination: cursorPaginationSchema });

export const EMAIL_STATUSES = ["PENDING", "SENT", "FAILED"] as const;

const timelineEvent = z
  .object({
    kind: z.literal("event"),
    type: z
      .string()
      .meta({ description: "What happened: `donation.created`, `payment_intent.succeeded`, `refund.requested`, `charge.refunded`, …" }),
    at: z.string(),
    processorEventId: z.string().nullable().meta({ description: "The processor event that caused it, if any." }),
    data: z.record(z.string(), z.unknown()).meta({ description: "Details; status changes carry `from` and `to`." }),
  })
  .meta({ id: "DonationTimelineEvent" });

const timelineEmail = z
  .object({
    kind: z.literal("email"),
    type: z.string().meta({ description: "`email.<template>`: `email.receipt`, `email.admin-notification`, `email.tribute`." }),
    at: z.string().meta({ description: "When the email was queued (in the transaction of the event that caused it)." }),
    template: z.string(),
    recipient: z.string(),
    status: z
      .enum(EMAIL_STATUSES)
      .meta({ description: "PENDING until delivered (or kept, without an email provider); FAILED after the last retry." }),
    sentAt: z.string().nullable(),
    attempts: z.number().int(),
  })
  .meta({ id: "DonationTimelineEmail" });

export const timelineEntrySchema = z.discriminatedUnion("kind", [timelineEvent, timelineEmail]);
export type TimelineEntry = z.output<typeof timelineEntrySchema>;

export const donationDetailSchema = donationSchema
  .extend({
    timeline: z.array(timelineEntrySchema).meta({
      description:
        "Oldest first: the donation's events and the emails queued for it, merged by time; an email queued " +
        "by an event sorts right after that event.",
    }),
  })
  .meta({ id: "DonationDetail" });

type TimelineSource =
  | { kind: "event"; type: string; at: Date; processorEventId: string | null; data: Record<string, unknown> }
  | {
      kind: "email";
      template: string;
      recipient: string;
      status: (typeof EMAIL_STATUSES)[number];
      at: Date;
      sentAt: Date | null;
      attempts: number;
    };

export function serializeTimelineEntry(e: TimelineSource): TimelineEntry {
  if (e.kind === "event") {
    return { kind: "event", type: e.type, at: iso(e.at)!, processorEventId: e.processorEventId, data: e.data };
  }
  return {
    kind: "email",
    type: `email.${e.template}`,
    at: iso(e.at)!,
    template: e.template,
    recipient: e.recipient,
    status: e.status,
    sentAt: iso(e.sentAt),
    attempts: e.attempts,
  };
}
