import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recurringPlans } from "@/db/schema";
import { post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { activeOrgAndCampaign, paidDonation } from "../helpers/records";

describe("POST /api/orgs/:idOrSlug/processor/subscriptions/adopt in sandbox mode", () => {
  it("POST /api/orgs/:idOrSlug/processor/subscriptions/adopt lists the sandbox's own subscriptions: those made here are already known", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    await paidDonation(campaign.id, { recurringInterval: "MONTH" });
    await paidDonation(campaign.id, { recurringInterval: "YEAR" });
    const res = await post(`/api/orgs/${org.id}/processor/subscriptions/adopt`, { campaignId: campaign.id }, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ adopted: 0, alreadyKnown: 2, skipped: [], planIds: [] });
    const db = await testDb();
    expect(await db.select().from(recurringPlans).where(eq(recurringPlans.orgId, org.id))).toHaveLength(2);
  });
});
