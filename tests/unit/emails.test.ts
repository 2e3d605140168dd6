import { describe, expect, it } from "vitest";
import AdminNotification from "@/emails/admin-notification";
import DisputeAlert from "@/emails/dispute-alert";
import DonorSignIn from "@/emails/donor-sign-in";
import DonorErasureRequest from "@/emails/donor-erasure-request";
import MagicLink from "@/emails/magic-link";
import MemberInvitation from "@/emails/member-invitation";
import PlanPaymentIssue from "@/emails/plan-payment-issue";
import SecurityNotice from "@/emails/security-notice";
import UnfinishedGift from "@/emails/unfinished-gift";
import FundraiserConfirm from "@/emails/fundraiser-confirm";
import FundraiserGift from "@/emails/fundraiser-gift";
import FundraiserGoal from "@/emails/fundraiser-goal";
import FundraiserMessage from "@/emails/fundraiser-message";
import Milestone from "@/emails/milestone";
import Receipt from "@/emails/receipt";
import PlanCanceled from "@/emails/plan-canceled";
import PlanCanceledNotice from "@/emails/plan-canceled-notice";
import RefundConfirmation from "@/emails/refund-confirmation";
import Tribute from "@/emails/tribute";
import YearEndStatement from "@/emails/year-end-statement";
import { renderEmail, TEST_MODE_SUBJECT_PREFIX, type RenderedEmail } from "@/lib/email/render";
import type {
  AdminNotificationProps,
  DisputeAlertProps,
  EmailMessage,
  EmailPropsByTemplate,
  EmailTemplate,
  MemberInvitationProps,
  MilestoneProps,
  ReceiptProps,
  RefundConfirmationProps,
  TributeProps,
} from "@/lib/email/types";
import { renderTemplate as render } from "../helpers/email";

// `render` gives the templates as a Stripe-mode install sends them; the test-mode marks are checked at the end.

/** Every template with its preview props. */
const PREVIEWS = Object.entries({
  receipt: Receipt.PreviewProps,
  "admin-notification": AdminNotification.PreviewProps,
  tribute: Tribute.PreviewProps,
  milestone: Milestone.PreviewProps,
  "dispute-alert": DisputeAlert.PreviewProps,
  "magic-link": MagicLink.PreviewProps,
  "donor-sign-in": DonorSignIn.PreviewProps,
  "refund-confirmation": RefundConfirmation.PreviewProps,
  "plan-canceled": PlanCanceled.PreviewProps,
  "plan-canceled-notice": PlanCanceledNotice.PreviewProps,
  "member-invitation": MemberInvitation.PreviewProps,
  "year-end-statement": YearEndStatement.PreviewProps,
  "donor-erasure-request": DonorErasureRequest.PreviewProps,
  "security-notice": SecurityNotice.PreviewProps,
  "plan-payment-issue": PlanPaymentIssue.PreviewProps,
  "unfinished-gift": UnfinishedGift.PreviewProps,
  "fundraiser-confirm": FundraiserConfirm.PreviewProps,
  "fundraiser-gift": FundraiserGift.PreviewProps,
  "fundraiser-goal": FundraiserGoal.PreviewProps,
  "fundraiser-message": FundraiserMessage.PreviewProps,
} satisfies { [K in EmailTemplate]: EmailPropsByTemplate[K] }) as [EmailTemplate, EmailPropsByTemplate[EmailTemplate]][];

/** Each string appears in the HTML part and in the plain-text part. */
function expectInBoth(email: RenderedEmail, ...needles: string[]) {
  for (const needle of needles) {
    expect(email.html, `html has ${needle}`).toContain(needle);
    expect(email.text, `text has ${needle}`).toContain(needle);
  }
}

function expectPlainText(email: RenderedEmail) {
  expect(email.text).not.toMatch(/<\/?[a-z][^>]*>/i);
  expect(email.text).not.toMatch(/&(amp|lt|gt|quot|#x?[0-9a-f]+);/i);
  expect(email.text.length).toBeGreaterThan(100);
}

function expectAccessibleHtml(email: RenderedEmail) {
  expect(email.html).toMatch(/<html[^>]*lang="en"/);
  expect(email.html).toMatch(/<h1[\s>]/);
}

const receipt: ReceiptProps = {
  donorFirstName: "Zoë",
  donorName: "Zoë Ångström",
  donorEmail: "zoe.angstrom@example.org",
  amountCents: 123_456,
  currency: "usd",
  campaignTitle: "Fjällbacka Lighthouse Restoration",
  orgName: "Lighthouse Friends",
  orgLegalName: "Friends of the Fjällbacka Lighthouse, Inc.",
  orgTaxId: "98-7654321",
  date: "2025-03-05T14:00:00.000Z",
  donationId: "don_zoe7Q4M2X9",
  dedication: { type: "IN_MEMORY", honoreeName: "Ingrid Bergström", message: "She loved the sea." },
  recurring: null,
  isRenewal: false,
  tickets: null,
  campaignUrl: "https://goodfund.example.org/o/lighthouse/donate/fjallbacka",
};

describe("email templates", () => {
  it("receipt: names the donor, amount, campaign, legal name, tax ID, date, donation ID and dedication", async () => {
    const email = await render("receipt", receipt);
    expectInBoth(
      email,
      "Thank you, Zoë!",
      "Zoë Ångström",
      "$1,234.56",
      "Fjällbacka Lighthouse Restoration",
      "Friends of the Fjällbacka Lighthouse, Inc.",
      "98-7654321",
      "March 5, 2025",
      "don_zoe7Q4M2X9",
      "in memory of Ingrid Bergström",
      "She loved the sea.",
      "No goods or services were provided in exchange for this contribution.",
      "https://goodfund.example.org/o/lighthouse/donate/fjallbacka",
    );
    expect(email.text).not.toContain("You will be charged");
    expect(email.subject).toBe("Thank you, Zoë! Your receipt for $1,234.56 to Fjällbacka Lighthouse Restoration");
    expectPlainText(email);
    expectAccessibleHtml(email);
  });

  it("receipt: states the recurring terms, and the renewal", async () => {
    const monthly = await render("receipt", {
      ...receipt,
      amountCents: 2500,
      dedication: null,
      recurring: { interval: "MONTH", amountCents: 2500, currency: "usd" },
    });
    expectInBoth(monthly, "You will be charged $25.00 every month until you cancel.");

    const renewal = await render("receipt", {
      ...receipt,
      amountCents: 10_000,
      recurring: { interval: "YEAR", amountCents: 10_000, currency: "usd" },
      isRenewal: true,
      date: "2026-03-05T14:00:00.000Z",
    });
    expectInBoth(
      renewal,
      "Your yearly gift of $100.00 to Fjällbacka Lighthouse Restoration was renewed on March 5, 2026",
      "You will be charged $100.00 every year until you cancel.",
    );
    expect(renewal.subject).toBe("Thank you, Zoë! Your yearly gift of $100.00 to Fjällbacka Lighthouse Restoration was renewed");
  });

  it("receipt: tickets replace the no-goods-or-services line; the org name stands in for a missing legal name", async () => {
    const email = await render("receipt", { ...receipt, tickets: 2, orgLegalName: null, orgTaxId: null, dedication: null });
    expectInBoth(email, "2 tickets", "Lighthouse Friends");
    expect(email.text).not.toContain("No goods or services");
    expect(email.text).toContain("Goods or services (2 tickets) were provided in exchange for this payment");
    expect(email.text).not.toContain("Tax ID");
  });

  it("receipt: formats other currencies in their own precision, upper-casing the code", async () => {
    const eur = await render("receipt", { ...receipt, currency: "eur", amountCents: 5000 });
    expectInBoth(eur, "€50.00");
    const jpy = await render("receipt", { ...receipt, currency: "jpy", amountCents: 5000 });
    expectInBoth(jpy, "¥5,000");
  });

  it("admin notification: the charged amount as the receipt says it, with the part that covered fees", async () => {
    const props: AdminNotificationProps = {
      orgName: "Lighthouse Friends",
      donorName: "Maya Okafor",
      donorEmail: "maya@example.org",
      anonymous: false,
      amountCents: 2606,
      feeCents: 106,
      currency: "usd",
      campaignTitle: "Lamp Room",
      message: null,
      donationId: "don_fee1",
      isRenewal: false,
      recurringInterval: null,
      dashboardUrl: "https://goodfund.example.org/dashboard/lighthouse/donations/don_fee1",
    };
    const email = await render("admin-notification", props);
    expectInBoth(email, "$26.06 (a $25.00 gift and $1.06 to cover fees)");
    expect(email.subject).toBe("New donation: $26.06 to Lamp Room from Maya Okafor");
  });

  it("admin notification: donor, email, amount, campaign, message, donation ID", async () => {
    const props: AdminNotificationProps = {
      orgName: "Lighthouse Friends",
      donorName: "Zoë Ångström",
      donorEmail: "zoe.angstrom@example.org",
      anonymous: true,
      amountCents: 123_456,
      currency: "usd",
      campaignTitle: "Fjällbacka Lighthouse Restoration",
      message: "For the lamp room.",
      donationId: "don_zoe7Q4M2X9",
      isRenewal: false,
      recurringInterval: "MONTH",
      dashboardUrl: "https://goodfund.example.org/dashboard/lighthouse/donations/don_zoe7Q4M2X9",
    };
    const email = await render("admin-notification", props);
    expectInBoth(
      email,
      "Zoë Ångström",
      "zoe.angstrom@example.org",
      "$1,234.56",
      "Fjällbacka Lighthouse Restoration",
      "For the lamp room.",
      "don_zoe7Q4M2X9",
      "monthly",
      "anonymous",
    );
    expect(email.subject).toBe("New donation: $1,234.56 to Fjällbacka Lighthouse Restoration from Zoë Ångström");
    expectPlainText(email);
    expectAccessibleHtml(email);
  });

  it("tribute: honoree, donor (unless anonymous), message, campaign; never the amount", async () => {
    const props: TributeProps = {
      honoreeName: "Ingrid Bergström",
      type: "IN_MEMORY",
      donorName: "Zoë Ångström",
      anonymous: false,
      message: "She loved the sea.",
      campaignTitle: "Fjällbacka Lighthouse Restoration",
      orgName: "Lighthouse Friends",
      campaignUrl: "https://goodfund.example.org/o/lighthouse/donate/fjallbacka",
    };
    const email = await render("tribute", props);
    expectInBoth(
      email,
      "Zoë Ångström made a gift in memory of Ingrid Bergström",
      "She loved the sea.",
      "Fjällbacka Lighthouse Restoration",
      "Lighthouse Friends",
    );
    expect(email.text).not.toMatch(/\$\d/);
    expect(email.subject).toBe("Zoë Ångström made a gift in memory of Ingrid Bergström");
    expectPlainText(email);
    expectAccessibleHtml(email);

    const anonymous = await render("tribute", { ...props, anonymous: true, type: "IN_HONOR" });
    expect(anonymous.html).not.toContain("Zoë");
    expect(anonymous.text).not.toContain("Zoë");
    expect(anonymous.subject).toBe("A gift was made in honor of Ingrid Bergström");
  });

  it("milestone: threshold, raised against goal", async () => {
    const props: MilestoneProps = {
      orgName: "Lighthouse Friends",
      campaignTitle: "Fjällbacka Lighthouse Restoration",
      thresholdPct: 75,
      raisedAmountCents: 1_523_456,
      goalAmountCents: 2_000_000,
      currency: "usd",
      dashboardUrl: "https://goodfund.example.org/dashboard/lighthouse/campaigns/fjallbacka",
    };
    const email = await render("milestone", props);
    expectInBoth(email, "reached 75% of its goal", "$15,234.56", "$20,000.00", "(76%)", "Lighthouse Friends");
    expect(email.subject).toBe("Fjällbacka Lighthouse Restoration reached 75% of its goal");
    expectPlainText(email);
    expectAccessibleHtml(email);
    expect((await render("milestone", { ...props, thresholdPct: 100, raisedAmountCents: 2_000_000 })).subject).toBe(
      "Fjällbacka Lighthouse Restoration reached its goal!",
    );
  });

  it("dispute alert: amount, reason, response deadline, donation ID", async () => {
    const props: DisputeAlertProps = {
      orgName: "Lighthouse Friends",
      campaignTitle: "Fjällbacka Lighthouse Restoration",
      donationId: "don_zoe7Q4M2X9",
      amountCents: 123_456,
      currency: "usd",
      reason: "product_not_received",
      responseDeadline: "2025-04-26T23:59:00.000Z",
      donorEmail: "zoe.angstrom@example.org",
      dashboardUrl: "https://goodfund.example.org/dashboard/lighthouse/donations/don_zoe7Q4M2X9",
    };
    const email = await render("dispute-alert", props);
    expectInBoth(
      email,
      "$1,234.56",
      "Product not received",
      "April 26, 2025 at 11:59 PM UTC",
      "don_zoe7Q4M2X9",
      "zoe.angstrom@example.org",
    );
    expect(email.subject).toBe(
      "Action needed: a $1,234.56 donation to Fjällbacka Lighthouse Restoration was disputed (respond by April 26, 2025 at 11:59 PM UTC)",
    );
    expectPlainText(email);
    expectAccessibleHtml(email);

    const noDeadline = await render("dispute-alert", { ...props, responseDeadline: null });
    expectInBoth(noDeadline, "respond as soon as possible");
  });

  it("magic link: the link in both parts", async () => {
    const url = "https://goodfund.example.org/api/auth/callback/email?token=zoe123";
    const email = await render("magic-link", { url, host: "goodfund.example.org" });
    expect(email.text).toContain(url);
    expect(email.html).toContain(url);
    expect(email.subject).toBe("Sign in to Goodfund on goodfund.example.org");
    expectPlainText(email);
    expectAccessibleHtml(email);
  });

  it("donor sign-in: the organization, the single-use link in both parts and how long it works", async () => {
    const url = "https://goodfund.example.org/o/lighthouse/account/sign-in?token=zoe123";
    const email = await render("donor-sign-in", { url, orgName: "Lighthouse Friends", expiresInMinutes: 15 });
    expectInBoth(email, url, "Lighthouse Friends", "The link works once, within 15 minutes.");
    expect(email.subject).toBe("Your sign-in link for your Lighthouse Friends donor account");
    expectPlainText(email);
    expectAccessibleHtml(email);
  });

  it("receipt: links to the donor's account, where recurring gifts are changed or canceled", async () => {
    const accountUrl = "https://goodfund.example.org/o/lighthouse/account";
    const monthly = await render("receipt", {
      ...receipt,
      amountCents: 2500,
      recurring: { interval: "MONTH", amountCents: 2500, currency: "usd" },
      accountUrl,
    });
    expect(monthly.html).toContain(`href="${accountUrl}"`);
    expect(monthly.text).toContain(accountUrl);
    expectInBoth(monthly, "You can change or cancel your monthly gift from your donor account.");
    expect(monthly.text).not.toContain("contact Lighthouse Friends");
    // A receipt queued before accounts existed keeps its old wording and has no account link.
    const old = await render("receipt", { ...receipt, recurring: { interval: "MONTH", amountCents: 2500, currency: "usd" } });
    expect(old.html).not.toContain("/account");
    expectInBoth(old, "To change or cancel your monthly gift, contact Lighthouse Friends.");
  });

  it("refund confirmation: amount refunded and its date, the original gift, when the money arrives, whom to ask", async () => {
    const props: RefundConfirmationProps = {
      donorFirstName: "Zoë",
      donorName: "Zoë Ångström",
      donorEmail: "zoe.angstrom@example.org",
      refundedAmountCents: 123_456,
      refundedAt: "2025-03-12T09:00:00.000Z",
      amountCents: 123_456,
      currency: "usd",
      donatedAt: "2025-03-05T14:00:00.000Z",
      campaignTitle: "Fjällbacka Lighthouse Restoration",
      donationId: "don_zoe7Q4M2X9",
      orgName: "Lighthouse Friends",
      orgContactEmail: "hello@lighthouse.example.org",
    };
    const email = await render("refund-confirmation", props);
    expectInBoth(
      email,
      "Zoë, your gift was refunded",
      "refunded your gift of $1,234.56 to Fjällbacka Lighthouse Restoration in full on March 12, 2025",
      "March 5, 2025",
      "don_zoe7Q4M2X9",
      "Refunds usually reach your account within 5–10 business days, depending on your bank.",
      "Contact Lighthouse Friends at",
      "hello@lighthouse.example.org",
      "please don’t claim it as a tax deduction",
    );
    expect(email.html).toContain("mailto:hello@lighthouse.example.org");
    expect(email.subject).toBe("Your refund of $1,234.56 from Lighthouse Friends is on its way");
    expectPlainText(email);
    expectAccessibleHtml(email);

    const partial = await render("refund-confirmation", {
      ...props,
      refundedAmountCents: 1000,
      orgContactEmail: null,
      currency: "eur",
      donorFirstName: null,
      donorName: null,
    });
    expectInBoth(
      partial,
      "Your gift was refunded",
      "refunded €10.00 of your gift of €1,234.56",
      "Contact Lighthouse Friends and quote the donation ID.",
    );
    expect(partial.text).not.toContain("in full");
    expect(partial.subject).toBe("Your refund of €10.00 from Lighthouse Friends is on its way");
    const jpy = await render("refund-confirmation", { ...props, currency: "jpy", refundedAmountCents: 5000, amountCents: 5000 });
    expectInBoth(jpy, "¥5,000");
  });

  it("member invitation: organization, role and what it allows, who invited, the sign-in link (no token)", async () => {
    const signInUrl = "https://goodfund.example.org/signin?email=sam%40example.org&callbackUrl=%2Fdashboard%2Flighthouse";
    const props: MemberInvitationProps = {
      orgName: "Lighthouse Friends",
      role: "ADMIN",
      memberEmail: "sam@example.org",
      invitedBy: { name: "Zoë Ångström", email: "zoe.angstrom@example.org" },
      signInUrl,
    };
    const email = await render("member-invitation", props);
    expectInBoth(
      email,
      "You’re invited to Lighthouse Friends",
      "Zoë Ångström (zoe.angstrom@example.org) added you to Lighthouse Friends on Goodfund as an Admin.",
      "Admins can see everything and manage campaigns, refunds, webhooks and settings.",
      "Sign in with sam@example.org",
    );
    expect(email.html).toContain(signInUrl.replaceAll("&", "&amp;"));
    expect(email.text).toContain(signInUrl);
    expect(email.subject).toBe("Zoë Ångström invited you to Lighthouse Friends on Goodfund");
    expectPlainText(email);
    expectAccessibleHtml(email);

    const member = await render("member-invitation", {
      ...props,
      role: "MEMBER",
      invitedBy: { name: null, email: "zoe.angstrom@example.org" },
    });
    expectInBoth(member, "as a Member", "Members can see everything");
    expect(member.subject).toBe("zoe.angstrom@example.org invited you to Lighthouse Friends on Goodfund");
    const owner = await render("member-invitation", { ...props, role: "OWNER", invitedBy: null });
    expectInBoth(owner, "You were added to Lighthouse Friends on Goodfund as an Owner.", "including managing members and payouts");
    expect(owner.subject).toBe("You were invited to Lighthouse Friends on Goodfund");
  });

  it("every template renders its preview props, the same way every time", async () => {
    for (const [template, props] of PREVIEWS) {
      const first = await render(template, props);
      expect(first.subject.length, template).toBeGreaterThan(5);
      expectPlainText(first);
      // Retries must carry the same payload, or the provider's idempotency check rejects them.
      expect(await render(template, props)).toEqual(first);
    }
  });

  it("test mode: every template's subject starts with [Test mode] and both parts open with the no-real-payment line", async () => {
    const note = "Test mode: no real payment was taken.";
    for (const [template, props] of PREVIEWS) {
      const live = await render(template, props);
      const marked = await render(template, props, true);
      expect(marked.subject, template).toBe(`${TEST_MODE_SUBJECT_PREFIX}${live.subject}`);
      expect(marked.text.startsWith(note), template).toBe(true);
      expect(marked.html, template).toContain(note);
      expect(live.html, template).not.toContain("Test mode");
      expect(live.text, template).not.toContain("Test mode");
      expectPlainText(marked);
    }
  });

  it("rejects an unknown template", async () => {
    await expect(renderEmail({ template: "nope", to: "x@example.org", props: {} } as unknown as EmailMessage)).rejects.toThrow(
      /Unknown email template/,
    );
  });
});
