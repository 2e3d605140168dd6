import { createElement, type Attributes, type ReactElement } from "react";
import { render } from "@react-email/render";
import AdminNotification, { subject as adminNotificationSubject } from "@/emails/admin-notification";
import DisputeAlert, { subject as disputeAlertSubject } from "@/emails/dispute-alert";
import DonorSignIn, { subject as donorSignInSubject } from "@/emails/donor-sign-in";
import DonorErasureRequest, { subject as donorErasureRequestSubject } from "@/emails/donor-erasure-request";
import MagicLink, { subject as magicLinkSubject } from "@/emails/magic-link";
import MemberInvitation, { subject as memberInvitationSubject } from "@/emails/member-invitation";
import Milestone, { subject as milestoneSubject } from "@/emails/milestone";
import PlanCanceled, { subject as planCanceledSubject } from "@/emails/plan-canceled";
import PlanCanceledNotice, { subject as planCanceledNoticeSubject } from "@/emails/plan-canceled-notice";
import PlanPaymentIssue, { subject as planPaymentIssueSubject } from "@/emails/plan-payment-issue";
import Receipt, { subject as receiptSubject } from "@/emails/receipt";
import RefundConfirmation, { subject as refundConfirmationSubject } from "@/emails/refund-confirmation";
import SecurityNotice, { subject as securityNoticeSubject } from "@/emails/security-notice";
import Tribute, { subject as tributeSubject } from "@/emails/tribute";
import UnfinishedGift, { subject as unfinishedGiftSubject } from "@/emails/unfinished-gift";
import YearEndStatement, { subject as yearEndStatementSubject } from "@/emails/year-end-statement";
import FundraiserConfirm, { subject as fundraiserConfirmSubject } from "@/emails/fundraiser-confirm";
import FundraiserGift, { subject as fundraiserGiftSubject } from "@/emails/fundraiser-gift";
import FundraiserGoal, { subject as fundraiserGoalSubject } from "@/emails/fundraiser-goal";
import FundraiserMessage, { subject as fundraiserMessageSubject } from "@/emails/fundraiser-message";
import { emailIntl } from "@/emails/_components/i18n";
import type { TestModeProps } from "@/emails/_components/test-mode-note";
import { getEnv } from "@/lib/env";
import type { EmailMessage, EmailPropsByTemplate, EmailTemplate, InLanguage } from "./types";

type Template<P> = { component: (props: P & TestModeProps) => ReactElement; subject: (props: P) => string };

/** Starts the subject of every English email of a sandbox install (nothing real is charged there); other languages say it in theirs. */
export const TEST_MODE_SUBJECT_PREFIX = "[Test mode] ";

/** Every template name → its React Email component and subject line; the compiler checks the props match. */
const TEMPLATES: { [K in EmailTemplate]: Template<EmailPropsByTemplate[K]> } = {
  receipt: { component: Receipt, subject: receiptSubject },
  "admin-notification": { component: AdminNotification, subject: adminNotificationSubject },
  tribute: { component: Tribute, subject: tributeSubject },
  milestone: { component: Milestone, subject: milestoneSubject },
  "dispute-alert": { component: DisputeAlert, subject: disputeAlertSubject },
  "magic-link": { component: MagicLink, subject: magicLinkSubject },
  "donor-sign-in": { component: DonorSignIn, subject: donorSignInSubject },
  "refund-confirmation": { component: RefundConfirmation, subject: refundConfirmationSubject },
  "plan-canceled": { component: PlanCanceled, subject: planCanceledSubject },
  "plan-canceled-notice": { component: PlanCanceledNotice, subject: planCanceledNoticeSubject },
  "member-invitation": { component: MemberInvitation, subject: memberInvitationSubject },
  "year-end-statement": { component: YearEndStatement, subject: yearEndStatementSubject },
  "donor-erasure-request": { component: DonorErasureRequest, subject: donorErasureRequestSubject },
  "security-notice": { component: SecurityNotice, subject: securityNoticeSubject },
  "plan-payment-issue": { component: PlanPaymentIssue, subject: planPaymentIssueSubject },
  "unfinished-gift": { component: UnfinishedGift, subject: unfinishedGiftSubject },
  "fundraiser-confirm": { component: FundraiserConfirm, subject: fundraiserConfirmSubject },
  "fundraiser-gift": { component: FundraiserGift, subject: fundraiserGiftSubject },
  "fundraiser-goal": { component: FundraiserGoal, subject: fundraiserGoalSubject },
  "fundraiser-message": { component: FundraiserMessage, subject: fundraiserMessageSubject },
};

export type RenderedEmail = { subject: string; html: string; text: string };

export function isEmailTemplate(name: unknown): name is EmailTemplate {
  return typeof name === "string" && Object.hasOwn(TEMPLATES, name);
}

/** Sandbox payments mark their emails unless told otherwise. */
const defaultTestMode = () => getEnv().paymentsMode === "sandbox";

/**
 * The subject line an email is sent with: its template's subject, after "[Test mode] " in test
 * mode (in the email's language: "[Modo de prueba] ", "[Mode test] ", "[Testmodus] "). renderEmail and the dashboard's lists of emails both take it from here, so a list shows
 * exactly the subject the recipient sees.
 */
export function emailSubject<T extends EmailTemplate>(
  message: Pick<EmailMessage<T>, "template" | "props">,
  { testMode = defaultTestMode() }: { testMode?: boolean } = {},
): string {
  if (!isEmailTemplate(message.template)) throw new Error(`Unknown email template: ${String(message.template)}`);
  const subject = (TEMPLATES[message.template] as Template<EmailPropsByTemplate[T]>).subject(message.props);
  if (!testMode) return subject;
  const { locale } = message.props as InLanguage;
  return emailIntl(locale).t("common.testModeSubject", { subject });
}

// html-to-text upper-cases headings by default; keep names as the donor wrote them.
const keepCase = ["h1", "h2", "h3"].map((selector) => ({ selector, options: { uppercase: false } }));

/**
 * Renders an email to its subject, HTML and plain-text parts. Deterministic for the same
 * message and mode (no clock, no randomness), so a retried send carries the same payload as the
 * first try, which the provider's idempotency check requires.
 *
 * In test mode (by default: sandbox payments) the subject starts with "[Test mode] " and the body
 * opens with a line saying no real payment was taken.
 */
export async function renderEmail<T extends EmailTemplate>(
  message: EmailMessage<T>,
  { testMode = defaultTestMode() }: { testMode?: boolean } = {},
): Promise<RenderedEmail> {
  if (!isEmailTemplate(message.template)) throw new Error(`Unknown email template: ${String(message.template)}`);
  const template = TEMPLATES[message.template] as Template<EmailPropsByTemplate[T]>;
  const props = { ...message.props, testMode } as EmailPropsByTemplate[T] & TestModeProps & Attributes;
  const element = createElement(template.component, props);
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true, htmlToTextOptions: { selectors: keepCase } }),
  ]);
  return { subject: emailSubject(message, { testMode }), html, text: text.trim() };
}
