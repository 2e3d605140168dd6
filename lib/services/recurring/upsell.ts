import type { Campaign } from "@/db/schema";
import type { Issues } from "@/lib/errors";
import { offersMonthlyUpsell } from "@/lib/monthly-upsell";
import type { CreateDonationInput } from "@/lib/schemas/donations";

/** The upsell a gift reports must be one its campaign offers: accepted means the monthly gift, declined a one-time one. */
export function assertUpsellFitsCampaign(input: CreateDonationInput, campaign: Campaign, issues: Issues): void {
  if (!input.upsell) return;
  if (!offersMonthlyUpsell(campaign)) {
    issues.add("upsell", "This campaign does not offer a monthly gift", "upsell_not_offered");
  } else if (input.upsell === "ACCEPTED" && input.recurringInterval !== "MONTH") {
    issues.add("upsell", "An accepted monthly offer is a MONTH gift", "upsell_needs_monthly");
  } else if (input.upsell === "DECLINED" && input.recurringInterval) {
    issues.add("upsell", "A declined monthly offer is a one-time gift", "upsell_needs_one_time");
  }
}
