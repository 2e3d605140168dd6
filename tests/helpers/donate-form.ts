import { initialValues, type DonateFormValues } from "@/components/donate/donate-schema";
import type { DonateFormCampaign } from "@/components/donate/types";

/** A donation campaign as the donate form sees it: USD, three suggested amounts, a $5 minimum, no tickets, no matching. */
export function formCampaign(fields: Partial<DonateFormCampaign> = {}): DonateFormCampaign {
  return {
    currency: "usd",
    id: "cmp_1",
    title: "Winter",
    type: "DONATION",
    suggestedAmounts: [2500, 5000, 10000],
    allowCustomAmount: true,
    allowRecurring: true,
    monthlyUpsell: true,
    minAmountCents: 500,
    ticketPriceCents: null,
    ticketCapacity: null,
    ticketsSold: 0,
    ticketTiers: [],
    maxTicketsPerOrder: 10,
    matchingEnabled: false,
    matchingOrgName: null,
    matchingRatioPct: 100,
    showDonorRoll: true,
    collectAddress: false,
    receiptProfile: "US",
    ...fields,
  };
}

/** An event almost sold out, as the donate form sees it: $20 tickets, 5 of 50 left, at most 8 per order. */
export const formEvent = (fields: Partial<DonateFormCampaign> = {}): DonateFormCampaign =>
  formCampaign({
    type: "EVENT",
    suggestedAmounts: [],
    ticketPriceCents: 2000,
    ticketCapacity: 50,
    ticketsSold: 45,
    maxTicketsPerOrder: 8,
    ...fields,
  });

/** The form filled in by `donor` with a custom amount typed as `custom`. */
export const customGift = (
  campaign: DonateFormCampaign,
  custom: string,
  donor: { firstName: string; lastName: string; email: string },
) => ({
  ...initialValues(campaign),
  amount: { choice: "custom", custom },
  ...donor,
});

/** The form's values for `c` with a donor's name and email filled in, and `patch` on top. */
export const filled = (c: DonateFormCampaign, patch: Partial<DonateFormValues> = {}): DonateFormValues => ({
  ...initialValues(c),
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.org",
  ...patch,
});
