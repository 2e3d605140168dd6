import { created } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { createDonationBody, createdDonationSchema, serializeDonation } from "@/lib/schemas/donations";
import { createDonation } from "@/lib/services/donations/create-donation";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donations: start a donation; answers the PENDING donation and the payment form's client secret (public)
  POST: withRoute(
    {
      auth: "public",
      fastPath: true,
      overload: "priority",
      body: createDonationBody,
      doc: {
        operationId: "createDonation",
        summary: "Start a donation",
        description:
          "Public. Validates the gift against the campaign (minimum, suggested amounts when custom amounts are off, " +
          "recurring only where allowed and required for MEMBERSHIP, tickets × ticket price and at most the campaign's " +
          "`maxTicketsPerOrder` tickets for EVENT, the organization's currency), reserves event tickets, records the donor " +
          "(an existing donor's names change only when a payment succeeds), and answers the PENDING donation with the " +
          "payment form's `clientSecret` (and `subscriptionId` for recurring gifts). Its status then follows the " +
          "processor's events. Event tickets are held for `TICKET_HOLD_MINUTES` (30 by default): an unpaid donation is " +
          "then canceled (FAILED) and its tickets released. A declined card releases nothing: while the payment can " +
          "still be completed with another card the donation stays PENDING, with the decline in `failureReason`. " +
          "A campaign takes gifts only between its startDate (not for " +
          "EVENT campaigns, whose startDate is the event) and its endDate. A client whose donations failed (declined or " +
          "canceled payments) 5 times within the last hour gets 429 `Too many failed payments, try again later` with " +
          "`Retry-After`. When the server has Cloudflare Turnstile configured, `captchaToken` is required (400 on " +
          "`captchaToken` when missing or rejected; 503 when the verification service can't be reached).",
        tag: "Donations",
        bodyExamples: {
          oneTime: {
            summary: "A one-time gift",
            value: { campaignId: "cmp_…", amount: 5000, email: "ada@example.org", firstName: "Ada", lastName: "Lovelace" },
          },
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
          tickets: {
            summary: "Two event tickets at 75.00",
            value: { campaignId: "cmp_…", amount: 15000, tickets: 2, email: "ada@example.org" },
          },
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
    },
    async ({ db, body, clientIp, req }) => {
      const result = await createDonation(db, await getProcessor(), body, {
        clientIp: clientIp === "unknown" ? null : clientIp,
        acceptLanguage: req.headers.get("accept-language"),
      });
      return created({
        ...serializeDonation(result.donation),
        clientSecret: result.clientSecret,
        subscriptionId: result.subscriptionId,
        chargeAmountCents: result.chargeAmountCents,
      });
    },
  ),
});
