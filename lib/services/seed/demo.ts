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
        logoUrl: "/covers/riverside-logo.svg",
      })
      .onConflictDoNothing()
      .returning();
    if (!org) return null;
    await tx.insert(users).values(DEMO_OWNER).onConflictDoNothing();
    await tx.insert(memberships).values({ orgId: org.id, userId: DEMO_OWNER.id, role: "OWNER" }).onConflictDoNothing();
    await tx.insert(campaigns).values(demoCampaigns(org.id, Date.now()));
    return { orgSlug: org.slug, ownerEmail: DEMO_OWNER.email };
  });
}

/**
 * The demo's campaigns, one of each kind, with a cover from public/covers/ (served as /covers/...)
 * and a short story. Spring Garden stays a DRAFT to show publishing.
 */
export function demoCampaigns(orgId: string, now: number): (typeof campaigns.$inferInsert)[] {
  const p2pId = newId("cmp");
  return [
    {
      id: newId("cmp"),
      orgId,
      title: "Winter Meals Appeal",
      slug: "winter-meals",
      description:
        "Every $25 puts a week of hot meals on a neighbour's table this winter. When the cold sets in, more families in Riverside have to choose between heating and eating. Our volunteers cook and deliver soup, stew and fresh bread to seniors, families and anyone who knocks on our door.\n\nHarbor Credit Union is matching every gift, so yours goes twice as far.",
      coverImageUrl: "/covers/winter-meals.svg",
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
      orgId,
      title: "Run for Riverside 5K",
      slug: "run-for-riverside",
      type: "PEER_TO_PEER",
      description:
        "Lace up for Riverside! On race morning neighbours run, jog and walk the riverside loop, and every step raises money for the food bank. Start your own fundraising page, share it with friends and family, and let them cheer you over the finish line.",
      coverImageUrl: "/covers/run-for-riverside.svg",
      status: "ACTIVE",
      goalAmountCents: 2_000_000,
      createdAt: new Date(now - 4 * day),
    },
    {
      id: newId("cmp"),
      orgId,
      title: "Maya runs for Riverside",
      slug: "maya-runs",
      type: "PEER_TO_PEER",
      parentCampaignId: p2pId,
      description:
        "I'm running my first 5K for Riverside Food Bank, who helped my family through a hard winter a few years ago. Now it's my turn to give back. Every gift keeps me going, and every $25 puts a week of hot meals on a neighbour's table. Thank you for cheering me on!",
      coverImageUrl: "/covers/maya-runs.svg",
      status: "ACTIVE",
      goalAmountCents: 100_000,
      createdAt: new Date(now - 3 * day),
    },
    {
      id: newId("cmp"),
      orgId,
      title: `Harvest Gala ${new Date(now + 30 * day).getUTCFullYear()}`,
      slug: "harvest-gala",
      type: "EVENT",
      description:
        "Join us for an evening under the string lights: a long-table harvest dinner cooked by local chefs with produce from our community gardens. There will be music, stories from the neighbours we serve, and a toast to a year of full tables. Every ticket helps stock our shelves for the winter ahead.",
      coverImageUrl: "/covers/harvest-gala.svg",
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
      orgId,
      title: "Friends of Riverside Membership",
      slug: "friends",
      type: "MEMBERSHIP",
      description:
        "Friends of Riverside are the neighbours who keep our shelves full all year round. Membership is steady support we can plan around, from fresh produce deliveries to the after-school snack program. Members get our seasonal newsletter and an invitation to the volunteers' summer picnic.",
      coverImageUrl: "/covers/friends.svg",
      status: "ACTIVE",
      suggestedAmounts: [1_000, 2_500, 5_000],
      createdAt: new Date(now - 1 * day),
    },
    {
      id: newId("cmp"),
      orgId,
      title: "Spring Garden Project",
      slug: "spring-garden",
      description:
        "This spring we're turning the empty lot behind the food bank into raised beds, where neighbours grow fresh vegetables together and take the harvest home. Your gift buys soil, seedlings, tools and a rain barrel.\n\nStill a draft: publish it from the dashboard, or PATCH its status to ACTIVE, when the plans are ready.",
      coverImageUrl: "/covers/spring-garden.svg",
      status: "DRAFT",
      createdAt: new Date(now),
    },
  ];
}
