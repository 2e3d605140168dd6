import { count } from "drizzle-orm";
import type { Db } from "@/db";
import { campaigns, memberships, organizations, users } from "@/db/schema";
import { newId } from "@/lib/ids";

export const DEMO_OWNER = { id: "usr_demo", email: "demo@goodfund.local", name: "Demo Owner" };
export const DEMO_ORG_SLUG = "demo";

const day = 24 * 60 * 60 * 1000;

/**
 * First-run demo data: an ACTIVE organization (its sandbox payout account already connected),
 * its owner, and one campaign of each kind. Only on a database without any organization, so a
 * restart or a second instance never seeds twice (the insert of the fixed slug would conflict).
 */
export async function seedDemoIfEmpty(db: Db): Promise<{ orgSlug: string; ownerEmail: string } | null> {
  const [{ n }] = await db.select({ n: count() }).from(organizations);
  if (n > 0) return null;
  return db.transaction(async (tx) => {
    const [org] = await tx
      .insert(organizations)
      .values({
        id: newId("org"),
        name: "Riverside Food Bank",
        slug: DEMO_ORG_SLUG,
        status: "ACTIVE",
        notificationEmail: "team@riverside-food-bank.example",
        processorAccountId: "acct_sandbox_demo",
        chargesEnabled: true,
        payoutsEnabled: true,
        legalName: "Riverside Food Bank Inc.",
        taxId: "12-3456789",
        color: "#1a7f5a",
      })
      .onConflictDoNothing()
      .returning();
    if (!org) return null;
    await tx.insert(users).values(DEMO_OWNER).onConflictDoNothing();
    await tx.insert(memberships).values({ orgId: org.id, userId: DEMO_OWNER.id, role: "OWNER" }).onConflictDoNothing();
    const now = Date.now();
    const p2pId = newId("cmp");
    await tx.insert(campaigns).values([
      {
        id: newId("cmp"),
        orgId: org.id,
        title: "Winter Meals Appeal",
        slug: "winter-meals",
        description: "Every $25 puts a week of hot meals on a neighbour's table this winter.",
        status: "ACTIVE",
        goalAmountCents: 5_000_000,
        color: "#1a7f5a",
        matchingEnabled: true,
        matchingOrgName: "Harbor Credit Union",
        matchingMaxCents: 1_000_000,
        createdAt: new Date(now - 5 * day),
      },
      {
        id: p2pId,
        orgId: org.id,
        title: "Run for Riverside 5K",
        slug: "run-for-riverside",
        type: "PEER_TO_PEER",
        description: "Runners raise money with their own fundraising pages.",
        status: "ACTIVE",
        goalAmountCents: 2_000_000,
        createdAt: new Date(now - 4 * day),
      },
      {
        id: newId("cmp"),
        orgId: org.id,
        title: "Maya runs for Riverside",
        slug: "maya-runs",
        type: "PEER_TO_PEER",
        parentCampaignId: p2pId,
        status: "ACTIVE",
        goalAmountCents: 100_000,
        createdAt: new Date(now - 3 * day),
      },
      {
        id: newId("cmp"),
        orgId: org.id,
        title: `Harvest Gala ${new Date(now + 30 * day).getUTCFullYear()}`,
        slug: "harvest-gala",
        type: "EVENT",
        status: "ACTIVE",
        ticketPriceCents: 7_500,
        ticketCapacity: 200,
        allowRecurring: false,
        startDate: new Date(now + 30 * day),
        endDate: new Date(now + 30 * day + 5 * 60 * 60 * 1000),
        createdAt: new Date(now - 2 * day),
      },
      {
        id: newId("cmp"),
        orgId: org.id,
        title: "Friends of Riverside Membership",
        slug: "friends",
        type: "MEMBERSHIP",
        status: "ACTIVE",
        suggestedAmounts: [1_000, 2_500, 5_000],
        createdAt: new Date(now - 1 * day),
      },
      {
        id: newId("cmp"),
        orgId: org.id,
        title: "Spring Garden Project",
        slug: "spring-garden",
        description: "A draft: publish it from the dashboard or with PATCH status ACTIVE.",
        createdAt: new Date(now),
      },
    ]);
    return { orgSlug: org.slug, ownerEmail: DEMO_OWNER.email };
  });
}
