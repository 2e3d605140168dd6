import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db";
import { campaigns, donors, type Campaign, type Organization } from "@/db/schema";
import { campaignViewChanged, dropAllCampaignViews, transactionDroppingViews } from "@/lib/cache/public-campaign-view";
import { enqueueEmails, type QueuedEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { conflict } from "@/lib/errors";
import { serializeCampaign } from "@/lib/schemas/campaigns";
import type { UpdateFundraiserInput } from "@/lib/schemas/fundraisers";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { emitEvent } from "@/lib/webhooks-out/emit";
import { newId } from "@/lib/ids";

/** A supporter edits their own page (title, story, goal, cover image, whether gifts are emailed to them). */
export async function updateSupporterPage(db: Db, page: Campaign, input: UpdateFundraiserInput): Promise<Campaign> {
  const set: Partial<typeof campaigns.$inferInsert> = {};
  if (input.title !== undefined) set.title = input.title;
  if (input.story !== undefined) set.description = input.story;
  if (input.goalAmountCents !== undefined) set.goalAmountCents = input.goalAmountCents;
  if (input.coverImageUrl !== undefined) set.coverImageUrl = input.coverImageUrl;
  if (input.giftEmails !== undefined) set.fundraiserEmails = input.giftEmails;
  if (Object.keys(set).length === 0) return page;
  return transactionDroppingViews(db, async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(campaigns.id, page.id))
      .returning();
    campaignViewChanged(tx, row.id, row.teamId, row.parentCampaignId);
    return row;
  });
}

/**
 * Staff approve a supporter's page: one waiting for approval is published (ACTIVE), a hidden
 * one shown again (ACTIVE if it was paused by hiding). Emits `fundraiser.approved`. 409 for a
 * campaign that is not a supporter's page.
 */
export async function approveSupporterPage(db: Db, page: Campaign): Promise<Campaign> {
  if (!page.fundraiserDonorId && page.fundraiserFirstName === null)
    throw conflict("not_a_supporter_page", "Not a supporter's fundraiser page");
  if (page.moderation === "APPROVED" || (page.moderation === null && page.status !== "DRAFT")) return page;
  return transactionDroppingViews(db, async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({
        moderation: "APPROVED",
        status: page.status === "DRAFT" || page.status === "PAUSED" ? "ACTIVE" : page.status,
        updatedAt: new Date(),
      })
      .where(eq(campaigns.id, page.id))
      .returning();
    campaignViewChanged(tx, row.id, row.teamId, row.parentCampaignId);
    await emitEvent(tx, row.orgId, "fundraiser.approved", serializeCampaign(row));
    return row;
  }).finally(dropAllCampaignViews);
}

/** Staff hide a supporter's page: off the leaderboards and public views, and it takes no gifts (PAUSED) until approved again. */
export async function hideSupporterPage(db: Db, page: Campaign): Promise<Campaign> {
  if (!page.fundraiserDonorId && page.fundraiserFirstName === null)
    throw conflict("not_a_supporter_page", "Not a supporter's fundraiser page");
  return transactionDroppingViews(db, async (tx) => {
    const [row] = await tx
      .update(campaigns)
      .set({ moderation: "HIDDEN", status: page.status === "ACTIVE" ? "PAUSED" : page.status, updatedAt: new Date() })
      .where(eq(campaigns.id, page.id))
      .returning();
    campaignViewChanged(tx, row.id, row.teamId, row.parentCampaignId);
    return row;
  }).finally(dropAllCampaignViews);
}

/**
 * Staff's message to every supporter with a page on `parent`: one email per supporter (however
 * many pages they have), in their language, queued through the outbox in one transaction.
 * Answers how many were queued.
 */
export async function emailAllFundraisers(
  db: Db,
  org: Organization,
  parent: Campaign,
  message: { subject: string; body: string },
): Promise<number> {
  // Only a peer-to-peer parent has fundraisers; any other campaign has none to email.
  if (parent.type !== "PEER_TO_PEER" || parent.parentCampaignId) return 0;
  const rows = await db
    .select({
      donorId: donors.id,
      email: donors.email,
      locale: donors.locale,
      erasedAt: donors.erasedAt,
      firstName: campaigns.fundraiserFirstName,
    })
    .from(campaigns)
    .innerJoin(donors, eq(donors.id, campaigns.fundraiserDonorId))
    .where(and(eq(campaigns.parentCampaignId, parent.id), isNotNull(campaigns.fundraiserDonorId)));
  const seen = new Set<string>();
  const batch = newId("fmb");
  const emails: QueuedEmail[] = [];
  for (const r of rows) {
    if (seen.has(r.donorId) || r.erasedAt || !r.email) continue;
    seen.add(r.donorId);
    const locale = emailLocale(r.locale, org.defaultLocale);
    emails.push({
      template: "fundraiser-message",
      to: r.email,
      orgId: org.id,
      dedupeKey: `fundraiser-message:${batch}:${r.donorId}`,
      props: {
        locale,
        orgName: org.name,
        parentTitle: parent.title,
        firstName: r.firstName ?? "",
        subject: message.subject,
        body: message.body,
        accountUrl: `${donateBaseUrl(org)}/account?lang=${locale}`,
      },
    });
  }
  return db.transaction((tx) => enqueueEmails(tx, emails));
}
