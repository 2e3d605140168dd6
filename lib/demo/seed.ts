import { count, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { campaigns, memberships, organizations, processedEvents, users, type Organization } from "@/db/schema";
import { DEMO_OWNER } from "@/lib/auth/demo-owner";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { FUNDRAISER_PAGES, raceDay } from "./history-plan";
import { playDemoHistory, type HistoryOptions } from "./history";

export const DEMO_ORG_SLUG = "demo";

const day = 24 * 60 * 60 * 1000;

/** Marks in `processed_events` (the table of exactly-once marks): the seed began at `processed_at`, and it finished. */
export const seedStartedMarker = (orgId: string) => `demo-seed:${orgId}:started`;
export const seedCompleteMarker = (orgId: string) => `demo-seed:${orgId}:complete`;

export type SeededDemo = { orgSlug: string; ownerEmail: string };

/**
 * First-run demo data: an ACTIVE organization (its sandbox payout account already connected),
 * its owner, one campaign of each kind, and a year of activity (history.ts). Only on a database
 * without any organization, so a restart or a second instance never seeds twice (the insert of
 * the fixed slug would conflict); a history interrupted by a crash or a stop is finished by the
 * next start.
 *
 * Answers once the history is played, so the server is "ready" only with the demo complete: a
 * first visitor never sees campaigns at $0 while gifts are still being played. Its volume
 * (`scale`, DEMO_HISTORY_SCALE) keeps that wait short: half a year's plan by default.
 */
export async function seedDemoIfEmpty(db: Db, options: Pick<HistoryOptions, "scale"> = {}): Promise<SeededDemo | null> {
  const [{ n }] = await db.select({ n: count() }).from(organizations);
  const created = n === 0 && (await createDemoOrganization(db, DEMO_ORG_SLUG, new Date()));
  const pending = await pendingDemoHistory(db, DEMO_ORG_SLUG);
  if (pending) {
    const started = Date.now();
    console.log("Goodfund: playing the demo's year of gifts (first start only)…");
    const steps = await playPendingHistory(db, pending, options);
    log.info("demo history ready", { org: DEMO_ORG_SLUG, steps, ms: Date.now() - started });
  }
  return created || pending ? { orgSlug: DEMO_ORG_SLUG, ownerEmail: DEMO_OWNER.email } : null;
}

/**
 * Creates the demo organization under `slug` (unless an organization has it) and plays its
 * history, exactly once, before answering. The organization, its owner, campaigns and a
 * "started" marker (dated with the seed's `now`, where the history ends) are one transaction;
 * then the history in chunks, each exactly once (history.ts); then a "complete" marker. A call
 * that finds the seed started but not complete (a crash, or another instance still at it)
 * plays what is left, so the result is the same. An organization the seed did not start (no
 * marker) is never touched. Answers how many steps this call played (0: nothing was left).
 */
export async function seedDemoOrganization(db: Db, options: { slug: string; now?: Date } & HistoryOptions): Promise<number> {
  await createDemoOrganization(db, options.slug, options.now ?? new Date());
  const pending = await pendingDemoHistory(db, options.slug);
  return pending ? playPendingHistory(db, pending, options) : 0;
}

type PendingHistory = { org: Organization; now: Date };

/** The organization under `slug` if the seed started it and its history is not complete. */
async function pendingDemoHistory(db: Db, slug: string): Promise<PendingHistory | null> {
  const [org] = await db.select().from(organizations).where(eq(organizations.slug, slug)).limit(1);
  if (!org) return null;
  const marks = await db
    .select({ id: processedEvents.id, at: processedEvents.processedAt })
    .from(processedEvents)
    .where(inArray(processedEvents.id, [seedStartedMarker(org.id), seedCompleteMarker(org.id)]));
  const started = marks.find((m) => m.id === seedStartedMarker(org.id));
  if (!started || marks.some((m) => m.id === seedCompleteMarker(org.id))) return null;
  return { org, now: started.at };
}

async function playPendingHistory(db: Db, { org, now }: PendingHistory, options: HistoryOptions = {}): Promise<number> {
  const steps = await playDemoHistory(db, org, now, options);
  await db
    .insert(processedEvents)
    .values({ id: seedCompleteMarker(org.id), type: "demo_seed" })
    .onConflictDoNothing();
  return steps;
}

/** The organization, owner, campaigns and "started" marker, in one transaction; false if the slug is taken. */
function createDemoOrganization(db: Db, slug: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [org] = await tx
      .insert(organizations)
      .values({
        id: newId("org"),
        name: "Riverside Food Bank",
        slug,
        status: "ACTIVE",
        notificationEmail: "team@riverside-food-bank.example",
        // One organization per payout account: another demo (the tests') gets its own.
        processorAccountId: slug === DEMO_ORG_SLUG ? "acct_sandbox_demo" : `acct_sandbox_${slug}`,
        chargesEnabled: true,
        payoutsEnabled: true,
        legalName: "Riverside Food Bank Inc.",
        taxId: "12-3456789",
        color: "#1a7f5a",
        logoUrl: "/covers/riverside-logo.svg",
        createdAt: new Date(now.getTime() - 400 * day),
      })
      .onConflictDoNothing()
      .returning();
    if (!org) return false;
    await tx.insert(users).values(DEMO_OWNER).onConflictDoNothing();
    await tx.insert(memberships).values({ orgId: org.id, userId: DEMO_OWNER.id, role: "OWNER" }).onConflictDoNothing();
    const rows = demoCampaigns(org.id, now.getTime());
    // The sponsor's match starts three weeks ago, part of the history.
    await tx.insert(campaigns).values(rows.map((c) => (c.matchingEnabled ? { ...c, matchingEnabled: false } : c)));
    await tx.insert(campaigns).values(fundraiserPages(org.id, rows.find((c) => c.slug === "run-for-riverside")!.id!, now.getTime()));
    await tx.insert(processedEvents).values({ id: seedStartedMarker(org.id), type: "demo_seed", processedAt: now });
    return true;
  });
}

/** The 5K's fundraiser pages besides Maya's, opened in the weeks before the race. */
function fundraiserPages(orgId: string, parentCampaignId: string, now: number): (typeof campaigns.$inferInsert)[] {
  const race = raceDay(new Date(now)).getTime();
  return FUNDRAISER_PAGES.map((p, i) => ({
    id: newId("cmp"),
    orgId,
    title: p.title,
    slug: p.slug,
    type: "PEER_TO_PEER" as const,
    parentCampaignId,
    description: p.description,
    status: "ACTIVE" as const,
    goalAmountCents: p.goal,
    createdAt: new Date(race - (50 - i * 4) * day),
  }));
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
      // The appeal asks for one gift now; the membership and the run show the monthly offers.
      monthlyUpsell: false,
      description:
        "Every $25 puts a week of hot meals on a neighbour's table this winter. When the cold sets in, more families in Riverside have to choose between heating and eating. Our volunteers cook and deliver soup, stew and fresh bread to seniors, families and anyone who knocks on our door.\n\nHarbor Credit Union is matching every gift, so yours goes twice as far.",
      coverImageUrl: "/covers/winter-meals.svg",
      status: "ACTIVE",
      goalAmountCents: 30_000_000,
      color: "#1a7f5a",
      matchingEnabled: true,
      matchingOrgName: "Harbor Credit Union",
      matchingMaxCents: 1_000_000,
      createdAt: new Date(now - 400 * day),
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
      createdAt: new Date(raceDay(new Date(now)).getTime() - 56 * day),
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
      createdAt: new Date(raceDay(new Date(now)).getTime() - 52 * day),
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
      createdAt: new Date(now - 60 * day),
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
      createdAt: new Date(now - 390 * day),
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
