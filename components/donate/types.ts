import type { IssueCode } from "@/lib/errors";
import type { CampaignView } from "@/lib/schemas/campaigns";
import type { RECEIPT_PROFILES } from "@/lib/schemas/organizations";
import type { RecurringInterval } from "@/lib/schemas/donations";

/** How the page collects the card: Stripe's Payment Element, the sandbox form, or not at all. */
export type PaymentConfig = { mode: "sandbox" } | { mode: "stripe"; publishableKey: string } | { mode: "unavailable" };

/**
 * What the donate form needs to know about the campaign (all of it public), and its
 * organization's currency and receipt profile (which decides the address and Gift Aid fields).
 */
export type DonateFormCampaign = { currency: string; receiptProfile: (typeof RECEIPT_PROFILES)[number] } & Pick<
  CampaignView,
  | "id"
  | "title"
  | "type"
  | "suggestedAmounts"
  | "allowCustomAmount"
  | "allowRecurring"
  | "monthlyUpsell"
  | "minAmountCents"
  | "ticketPriceCents"
  | "ticketCapacity"
  | "ticketsSold"
  | "ticketTiers"
  | "maxTicketsPerOrder"
  | "matchingEnabled"
  | "matchingOrgName"
  | "matchingRatioPct"
  | "showDonorRoll"
  | "collectAddress"
>;

/** The 201 answer of POST /api/donations, as far as the payment step uses it. */
export type CreatedDonation = {
  id: string;
  amount: number;
  currency: string;
  status: string;
  recurringInterval: RecurringInterval | null;
  tickets: number | null;
  feeCents: number;
  clientSecret: string;
  chargeAmountCents: number;
};

/** The API's error body; validation failures carry each field's messages and their codes. */
export type ApiErrorBody = {
  error?: string;
  status?: number;
  details?: { fieldErrors?: Record<string, string[]>; formErrors?: string[]; codes?: Record<string, IssueCode[]> };
};
