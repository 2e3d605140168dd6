import { z } from "zod";
import { sandboxConfirmBody } from "@/lib/api/sandbox";
import { idParam, orgParam } from "@/lib/schemas/common";
import { createDonationBody, createdDonationSchema, donationSchema } from "@/lib/schemas/donations";
import type { OperationRow } from "./types";

const webhookAck = z
  .object({ received: z.literal(true), duplicate: z.literal(true).optional(), ignored: z.literal(true).optional() })
  .meta({ id: "WebhookAck" });

/** Donations, the processor's onboarding and webhooks, and the sandbox's stand-ins. */
export const PAYMENT_OPERATIONS: readonly OperationRow[] = [
  {
    file: "donations",
    method: "POST",
    operationId: "createDonation",
    summary: "Start a donation",
    description:
      "Public. Validates the gift against the campaign (minimum, suggested amounts when custom amounts are off, " +
      "recurring only where allowed and required for MEMBERSHIP, tickets × ticket price and at most the campaign's " +
      "`maxTicketsPerOrder` tickets for EVENT, the organization's currency), reserves event tickets, records the donor " +
      "(an existing donor's names change only when a payment succeeds), and answers the PENDING donation with the " +
      "payment form's `clientSecret` (and `subscriptionId` for recurring gifts). Its status then follows the " +
      "processor's events. Event tickets are held for `TICKET_HOLD_MINUTES` (30 by default): an unpaid donation is " +
      "then canceled (FAILED) and its tickets released. A campaign takes gifts only between its startDate (not for " +
      "EVENT campaigns, whose startDate is the event) and its endDate. A client whose donations failed (declined or " +
      "canceled payments) 5 times within the last hour gets 429 `Too many failed payments, try again later` with " +
      "`Retry-After`. When the server has Cloudflare Turnstile configured, `captchaToken` is required (400 on " +
      "`captchaToken` when missing or rejected; 503 when the verification service can't be reached).",
    tag: "Donations",
    access: "public",
    limit: "public",
    body: createDonationBody,
    bodyExamples: {
      oneTime: { summary: "A one-time gift", value: { campaignId: "cmp_…", amount: 5000, email: "ada@example.org", firstName: "Ada", lastName: "Lovelace" } },
      monthly: {
        summary: "A monthly gift in someone's honour, covering the fees",
        value: {
          campaignId: "cmp_…",
          amount: 2500,
          email: "ada@example.org",
          recurringInterval: "MONTH",
          coverFees: true,
          dedication: { type: "IN_HONOR", honoreeName: "Grace Hopper", notifyEmail: "grace@example.org", message: "Happy birthday!" },
        },
      },
      tickets: { summary: "Two event tickets at 75.00", value: { campaignId: "cmp_…", amount: 15000, tickets: 2, email: "ada@example.org" } },
      captcha: {
        summary: "With the donate form's Turnstile token",
        value: { campaignId: "cmp_…", amount: 5000, email: "ada@example.org", captchaToken: "0.zJf3…" },
      },
    },
    success: 201,
    response: createdDonationSchema,
    responseDescription: "The PENDING donation and what the payment form needs",
    notFound: "Campaign not found",
    conflicts: ["Campaign is not accepting donations", "Sold out"],
  },
  {
    file: "donations/[id]/refund",
    method: "POST",
    operationId: "refundDonation",
    summary: "Refund a donation in full",
    description: "Refunds through the processor; the status (REFUNDED) and totals follow the processor's `charge.refunded` event.",
    tag: "Donations",
    access: "ADMIN",
    limit: "authenticated",
    params: idParam,
    success: 200,
    response: donationSchema,
    responseDescription: "The donation as it stands after the refund request",
    notFound: "Donation not found",
    conflicts: ["Only a succeeded donation can be refunded"],
  },
  {
    file: "orgs/[idOrSlug]/processor/onboarding",
    method: "POST",
    operationId: "startProcessorOnboarding",
    summary: "Connect the organization's payout account",
    description:
      "Creates the connected account once and answers a fresh onboarding link. The organization becomes ACTIVE " +
      "(able to take donations) when the processor reports charges and payouts enabled (`account.updated`).",
    tag: "Processor",
    access: "OWNER",
    limit: "authenticated",
    params: orgParam,
    success: 200,
    response: z.object({ processorAccountId: z.string(), url: z.string() }).meta({ id: "OnboardingLink" }),
    responseDescription: "The account and where to send the owner",
    notFound: "Organization not found",
  },
  {
    file: "processor/webhooks",
    method: "POST",
    operationId: "receiveProcessorEvent",
    summary: "Receive a payment processor event",
    description:
      "Called by the processor. Verified by the `Stripe-Signature` (or `Processor-Signature`) header over the raw body " +
      "with PROCESSOR_WEBHOOK_SECRET, 5-minute tolerance. Each event ID takes effect once across all instances " +
      "(recorded in the same transaction as its effects); a failure answers 500 and keeps nothing, so the processor retries.",
    tag: "Processor",
    access: "public",
    limit: "none",
    body: z.record(z.string(), z.unknown()).meta({ description: "The processor's event object (Stripe's shape)" }),
    success: 200,
    response: webhookAck,
    responseDescription: "`{ received: true }`, with `duplicate: true` for an event already processed or `ignored: true` for a type Goodfund does not act on",
  },
  {
    file: "sandbox/payments/confirm",
    method: "POST",
    operationId: "confirmSandboxPayment",
    summary: "Pay with the sandbox card form",
    description:
      "Sandbox mode only. Card 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined; the outcome is sent as " +
      "signed processor events to the webhook endpoint, and the donation as it then stands is answered. The whole " +
      "client secret must match; a payment canceled because its ticket hold expired can't be confirmed (409).",
    tag: "Sandbox",
    access: "public",
    limit: "public",
    body: sandboxConfirmBody,
    success: 200,
    response: donationSchema,
    responseDescription: "The donation after the sandbox's events were applied",
    notFound: "Payment not found",
    conflicts: ["This payment is already complete", "This payment was canceled; please start a new donation", "Sold out"],
  },
  {
    file: "sandbox/subscriptions/[id]/renew",
    method: "POST",
    operationId: "renewSandboxSubscription",
    summary: "Bill a sandbox subscription's next cycle now",
    tag: "Sandbox",
    access: "ADMIN",
    limit: "authenticated",
    params: idParam,
    success: 202,
    response: z.object({ renewed: z.literal(true) }),
    responseDescription: "The renewal invoice was sent",
    notFound: "Subscription not found",
    conflicts: ["The subscription's first payment has not succeeded"],
  },
  {
    file: "sandbox/accounts/[id]/complete",
    method: "POST",
    operationId: "completeSandboxOnboarding",
    summary: "Finish the sandbox's payout-account onboarding",
    tag: "Sandbox",
    access: "OWNER",
    limit: "authenticated",
    params: idParam,
    success: 202,
    response: z.object({ completed: z.literal(true) }),
    responseDescription: "The account now charges and pays out",
    notFound: "Account not found",
  },
];
