import type { Locale } from "@/lib/i18n/locales";
import type { RecurringInterval } from "@/lib/schemas/donations";

/**
 * The emails Goodfund sends and the data each one is rendered from. The data is captured when
 * the email is enqueued (in the transaction of the event that causes it), so a later edit of a
 * campaign or organization never changes an email already on its way.
 */
export type Money = { amountCents: number; currency: string };

/**
 * On every email a donor (or their tribute's honoree) receives: the language it is written in,
 * chosen when it is queued (absent on emails queued before languages existed: English), and the
 * organization's time zone its dates are written in (absent before there was one: UTC).
 */
export type InLanguage = { locale?: Locale; timeZone?: string };

export type ReceiptProps = InLanguage & {
  donorFirstName: string | null;
  donorName: string | null;
  donorEmail: string;
  amountCents: number;
  currency: string;
  campaignTitle: string;
  orgName: string;
  orgLegalName: string | null;
  orgTaxId: string | null;
  /** ISO 8601 time the gift succeeded. */
  date: string;
  donationId: string;
  dedication: { type: "IN_HONOR" | "IN_MEMORY"; honoreeName: string; message: string | null } | null;
  /** Present on recurring gifts: what will be charged and how often. */
  recurring: { interval: RecurringInterval; amountCents: number; currency: string } | null;
  isRenewal: boolean;
  tickets: number | null;
  /**
   * An event order's tickets, one QR code each: the email shows `cid:ticket-{code}` images, sent as
   * inline attachments made when the email goes out. Absent on receipts without tickets.
   */
  ticketCodes?: { code: string; attendeeName: string; tierName: string }[];
  /** Link to the campaign's public page. */
  campaignUrl: string;
  /** The donor's account page (`{donateBaseUrl}/account`): gifts, receipts, plans, statements. Absent on receipts queued before it existed. */
  accountUrl?: string;
  /**
   * The gift's receipt under the organization's receipt profile, which words the email: US states
   * the goods or services and the deductible amount, CA sends the official receipt as an attached
   * PDF (rendered when the email is sent), UK thanks for a Gift Aid declaration, GENERIC states the
   * gift only. Absent on receipts queued before profiles existed: US.
   */
  receipt?: ReceiptSummary;
};

export type ReceiptSummary = {
  profile: "US" | "CA" | "UK" | "GENERIC";
  number: string | null;
  advantageCents: number;
  /** What the donor may deduct or claim: the amount less the advantage. */
  deductibleCents: number;
  giftAid: boolean;
};

export type AdminNotificationProps = {
  orgName: string;
  donorName: string | null;
  donorEmail: string | null;
  anonymous: boolean;
  /** What the donor was charged, as on the receipt and the thank-you page (the gift plus any fees they covered). */
  amountCents: number;
  /** The part of it the donor added to cover fees (absent on alerts queued before it was sent). */
  feeCents?: number;
  currency: string;
  campaignTitle: string;
  message: string | null;
  donationId: string;
  isRenewal: boolean;
  recurringInterval: RecurringInterval | null;
  dashboardUrl: string;
};

export type TributeProps = InLanguage & {
  honoreeName: string;
  type: "IN_HONOR" | "IN_MEMORY";
  donorName: string | null;
  anonymous: boolean;
  message: string | null;
  campaignTitle: string;
  orgName: string;
  campaignUrl: string;
};

export type MilestoneProps = {
  orgName: string;
  campaignTitle: string;
  thresholdPct: 25 | 50 | 75 | 100;
  raisedAmountCents: number;
  goalAmountCents: number;
  currency: string;
  dashboardUrl: string;
};

export type DisputeAlertProps = {
  orgName: string;
  /** The organization's time zone, the deadline's (absent on alerts queued before there was one: UTC). */
  timeZone?: string;
  campaignTitle: string;
  donationId: string;
  amountCents: number;
  currency: string;
  reason: string;
  /** ISO 8601 deadline to respond with evidence, when the processor gives one. */
  responseDeadline: string | null;
  donorEmail: string;
  dashboardUrl: string;
};

export type MagicLinkProps = { url: string; host: string };

/** A donor's single-use link to their account on one organization's pages. */
export type DonorSignInProps = InLanguage & { url: string; orgName: string; expiresInMinutes: number };

export type RefundConfirmationProps = InLanguage & {
  donorFirstName: string | null;
  donorName: string | null;
  donorEmail: string;
  /** What went back to the donor, in the gift's currency. */
  refundedAmountCents: number;
  /** ISO 8601 time the refund was recorded. */
  refundedAt: string;
  /** The original gift as the donor paid it (the receipt's amount). */
  amountCents: number;
  currency: string;
  /** ISO 8601 time the original gift succeeded. */
  donatedAt: string;
  campaignTitle: string;
  donationId: string;
  orgName: string;
  /** Where the donor can write with questions: the organization's notification address, if set. */
  orgContactEmail: string | null;
};

export type MemberInvitationProps = {
  orgName: string;
  role: "OWNER" | "ADMIN" | "MEMBER";
  memberEmail: string;
  /** Who added them, when a person did. */
  invitedBy: { name: string | null; email: string } | null;
  /** The sign-in page with their email filled in, returning to the organization's dashboard (no sign-in token). */
  signInUrl: string;
};

/** Staff: a donor asked to have their personal data erased, and the request waits for approval. */
export type DonorErasureRequestProps = {
  orgName: string;
  donorName: string | null;
  donorEmail: string | null;
  /** The donors page of the dashboard, where admins approve or reject it. */
  reviewUrl: string;
};

/** A year-end statement's cover note; `statement` says which PDF to render and attach when it is sent. */
export type YearEndStatementProps = InLanguage & {
  orgName: string;
  donorFirstName: string | null;
  donorName: string | null;
  year: number;
  /** The donor account page, where the statement can be downloaded again. */
  accountUrl: string;
  statement: { orgId: string; donorId: string; year: number };
};

/** A recurring plan the donor canceled from their account: the confirmation to them, or the note to the organization. */
export type PlanCanceledProps = InLanguage & {
  orgName: string;
  donorFirstName: string | null;
  donorName: string | null;
  donorEmail: string | null;
  /** The gift per cycle, in minor units. */
  amountCents: number;
  currency: string;
  interval: RecurringInterval;
  campaignTitle: string;
  planId: string;
  /** ISO 8601 time the plan ended. */
  canceledAt: string;
  /** Donor: their account page; organization: the dashboard's recurring plans page. */
  url: string;
};

/** Staff: a security event of their own account (a new device, a wrong two-factor code, a factor turned on or off). */
export type SecurityNoticeProps = {
  kind: "new-sign-in" | "wrong-code" | "two-factor-on" | "two-factor-off";
  email: string;
  /** ISO 8601 time of the event. */
  at: string;
  /** "Chrome on macOS". */
  device: string;
  /** "203.0.113.0/24": a coarse network, never the full address. */
  network: string;
  /** The dashboard's Security page. */
  securityUrl: string;
};

/**
 * A recurring plan's payments, to its donor: a renewal failed (`nextRetryAt` when the processor
 * tries again), the processor gave up after failed payments, or the card expires before the next
 * charge (`nextChargeAt`). `url` is their account page, where they replace the card.
 */
export type PlanPaymentIssueProps = InLanguage & {
  kind: "renewal-failed" | "gave-up" | "card-expiring";
  orgName: string;
  donorFirstName: string | null;
  donorName: string | null;
  donorEmail: string;
  /** The gift per cycle, in minor units. */
  amountCents: number;
  currency: string;
  interval: RecurringInterval;
  campaignTitle: string;
  planId: string;
  /** ISO 8601. */
  nextRetryAt: string | null;
  /** ISO 8601. */
  nextChargeAt: string | null;
  card: { brand: string | null; last4: string; expMonth: number; expYear: number } | null;
  url: string;
};

/** A gift started and not paid, to a donor who asked to be reminded: `url` reopens the form with the same campaign and amount. */
export type UnfinishedGiftProps = InLanguage & {
  orgName: string;
  donorFirstName: string | null;
  donorEmail: string;
  amountCents: number;
  currency: string;
  interval: RecurringInterval | null;
  campaignTitle: string;
  url: string;
  /** Stops these reminders from the organization, for this address. */
  unsubscribeUrl: string;
};

/** A supporter's link to confirm the fundraiser page they asked for (single use, 24 hours). */
export type FundraiserConfirmProps = InLanguage & {
  url: string;
  orgName: string;
  parentTitle: string;
  firstName: string;
  expiresInHours: number;
};

/** To a supporter: someone gave to their page (`donorName` and `message` null when anonymous). */
export type FundraiserGiftProps = InLanguage & {
  orgName: string;
  pageTitle: string;
  firstName: string;
  donorName: string | null;
  message: string | null;
  amountCents: number;
  currency: string;
  pageUrl: string;
  /** Their account page: their pages, gifts received, and where these emails are turned off. */
  accountUrl: string;
};

/** To a supporter: their page reached its goal. */
export type FundraiserGoalProps = InLanguage & {
  orgName: string;
  pageTitle: string;
  firstName: string;
  raisedAmountCents: number;
  goalAmountCents: number;
  currency: string;
  pageUrl: string;
  accountUrl: string;
};

/** Staff's message to every supporter with a page on a campaign. */
export type FundraiserMessageProps = InLanguage & {
  orgName: string;
  parentTitle: string;
  firstName: string;
  subject: string;
  body: string;
  accountUrl: string;
};

export type EmailPropsByTemplate = {
  receipt: ReceiptProps;
  "admin-notification": AdminNotificationProps;
  tribute: TributeProps;
  milestone: MilestoneProps;
  "dispute-alert": DisputeAlertProps;
  "magic-link": MagicLinkProps;
  "donor-sign-in": DonorSignInProps;
  "refund-confirmation": RefundConfirmationProps;
  "plan-canceled": PlanCanceledProps;
  "plan-canceled-notice": PlanCanceledProps;
  "member-invitation": MemberInvitationProps;
  "year-end-statement": YearEndStatementProps;
  "donor-erasure-request": DonorErasureRequestProps;
  "security-notice": SecurityNoticeProps;
  "plan-payment-issue": PlanPaymentIssueProps;
  "unfinished-gift": UnfinishedGiftProps;
  "fundraiser-confirm": FundraiserConfirmProps;
  "fundraiser-gift": FundraiserGiftProps;
  "fundraiser-goal": FundraiserGoalProps;
  "fundraiser-message": FundraiserMessageProps;
};

export type EmailTemplate = keyof EmailPropsByTemplate;

/** The payload of an `email` outbox row. */
export type EmailMessage<T extends EmailTemplate = EmailTemplate> = { template: T; to: string; props: EmailPropsByTemplate[T] };
