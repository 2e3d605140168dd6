import type { Campaign, Organization } from "@/db/schema";

/**
 * Whether the campaign takes gifts now: ACTIVE, of an ACTIVE organization with a payout account,
 * not past its end date, and not before its start date. An EVENT's start date is when the event
 * takes place, so its tickets sell before it (until its end date). POST /api/donations refuses
 * what this refuses, and the public campaign view's `acceptingDonations` is this answer, so the
 * donate page never offers a gift the API would turn down.
 */
export function acceptsDonations(
  campaign: Pick<Campaign, "status" | "type" | "startDate" | "endDate">,
  org: Pick<Organization, "status" | "processorAccountId">,
  now = Date.now(),
): boolean {
  const ended = campaign.endDate !== null && campaign.endDate.getTime() <= now;
  const notYet = campaign.type !== "EVENT" && campaign.startDate !== null && campaign.startDate.getTime() > now;
  return campaign.status === "ACTIVE" && org.status === "ACTIVE" && !!org.processorAccountId && !ended && !notYet;
}
