import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx, Tx } from "@/db";
import { campaignSlugsLike } from "@/db/queries/campaigns";
import { campaigns, donors, fundraiserSignUps, type Campaign, type FundraiserSignUp, type Organization } from "@/db/schema";
import { dropCampaignViews } from "@/lib/cache/public-campaign-view";
import { enqueueEmail } from "@/lib/email/enqueue";
import { AppError, conflict, fieldError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { Locale } from "@/lib/i18n/locales";
import { limitRequest, rateLimitHeaders } from "@/lib/ratelimit";
import { CAMPAIGN_SLUG_MAX, serializeCampaign } from "@/lib/schemas/campaigns";
import type { StartFundraiserInput } from "@/lib/schemas/fundraisers";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { findOrCreateDonor } from "@/lib/services/donations/upsert-donor";
import { normalizeDonorEmail } from "@/lib/services/donor-accounts/request-sign-in-link";
import { signInLinksKeptForMailbox } from "@/lib/services/sign-in/sign-in-links";
import { nextFreeSlug, slugify } from "@/lib/slug";
import { emitEvent } from "@/lib/webhooks-out/emit";

/** How long a fundraiser confirmation link works (it also works only once). */
export const FUNDRAISER_LINK_HOURS = 24;

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** A peer-to-peer parent that takes supporters' pages now, else 409 `supporter_pages_closed`. */
export function assertTakesSupporterPages(parent: Campaign, org: Organization): void {
  if (parent.type !== "PEER_TO_PEER" || parent.parentCampaignId !== null) {
    throw conflict("supporter_pages_closed", "This campaign does not take fundraiser pages");
  }
  if (parent.status !== "ACTIVE" || org.status !== "ACTIVE" || !parent.allowSupporterPages) {
    throw conflict("supporter_pages_closed", "This campaign is not taking new fundraiser pages");
  }
}

/** The team a supporter asked to join: a visible team page of this parent, else a 400 on `teamId`. */
async function assertTeam(db: DbOrTx, parent: Campaign, teamId: string): Promise<Campaign> {
  const [team] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, teamId), eq(campaigns.parentCampaignId, parent.id), eq(campaigns.isTeam, true)))
    .limit(1);
  if (!team || team.moderation === "HIDDEN") throw fieldError("teamId", "No team of this campaign has this ID", "team_not_found");
  return team;
}

/**
 * A supporter asks to start a fundraiser page on `parent` (and a team, or to join one). Nothing
 * is created yet: a sign-up row keeps what they asked for, and an email (queued in the same
 * transaction) carries its single-use link, valid FUNDRAISER_LINK_HOURS, to
 * `{donateBaseUrl}/account/fundraiser?token=…`, where a Continue button uses it. The token is kept
 * only as its SHA-256. Limited per organization and address (the donor sign-in link's limit), so
 * nobody floods an inbox. 409 when the parent takes no pages (not ACTIVE, pages off, not a parent);
 * 400 on `team` when teams are off, on `teamId` for a team that is not this parent's.
 */
export async function requestFundraiserPage(
  db: Db,
  org: Organization,
  parent: Campaign,
  input: StartFundraiserInput,
  opts: { locale: Locale },
): Promise<void> {
  assertTakesSupporterPages(parent, org);
  if ((input.team || input.teamId) && !parent.allowTeams) {
    throw fieldError(input.team ? "team" : "teamId", "This campaign does not have teams", "teams_not_allowed");
  }
  if (input.teamId) await assertTeam(db, parent, input.teamId);
  const email = normalizeDonorEmail(input.email);
  const limited = await limitRequest("donor-signin-address", `${org.id}:${email}`);
  if (!limited.success) throw new AppError("rate_limited", "Too many requests", undefined, rateLimitHeaders(limited));

  const token = randomBytes(32).toString("base64url");
  const id = newId("fsu");
  const url = `${donateBaseUrl(org)}/account/fundraiser?token=${encodeURIComponent(token)}&lang=${opts.locale}`;
  await db.transaction(async (tx) => {
    await tx.insert(fundraiserSignUps).values({
      id,
      orgId: org.id,
      parentCampaignId: parent.id,
      email: input.email.trim(),
      firstName: input.firstName,
      lastName: input.lastName,
      title: input.title ?? null,
      story: input.story ?? null,
      goalAmountCents: input.goalAmountCents ?? null,
      teamId: input.teamId ?? null,
      teamName: input.team?.name ?? null,
      locale: opts.locale,
      tokenHash: tokenHash(token),
      expiresAt: sql`now() + ${`${FUNDRAISER_LINK_HOURS} hours`}::interval`,
    });
    // No orgId on the row: staff list the organization's emails, and must never see a usable link.
    await enqueueEmail(tx, {
      template: "fundraiser-confirm",
      to: input.email.trim(),
      orgId: null,
      dedupeKey: `fundraiser-confirm:${id}`,
      props: {
        url,
        orgName: org.name,
        parentTitle: parent.title,
        firstName: input.firstName,
        expiresInHours: FUNDRAISER_LINK_HOURS,
        locale: opts.locale,
      },
      purgePropsWhenSent: !signInLinksKeptForMailbox(),
    });
  });
}

const usable = (org: Pick<Organization, "id">, token: string) =>
  and(
    eq(fundraiserSignUps.tokenHash, tokenHash(token)),
    eq(fundraiserSignUps.orgId, org.id),
    isNull(fundraiserSignUps.usedAt),
    gt(fundraiserSignUps.expiresAt, sql`now()`),
  );

/** Whether a token names a sign-up of `org` whose link can still be used (the confirmation page's first look; it changes nothing). */
export async function isFundraiserLinkUsable(db: Db, org: Pick<Organization, "id">, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const [row] = await db.select({ id: fundraiserSignUps.id }).from(fundraiserSignUps).where(usable(org, token)).limit(1);
  return row !== undefined;
}

async function freeSlug(tx: Tx, orgId: string, title: string): Promise<string> {
  const base = slugify(title, CAMPAIGN_SLUG_MAX) || "fundraiser";
  return nextFreeSlug(base, await campaignSlugsLike(tx, orgId, base), CAMPAIGN_SLUG_MAX);
}

export type ConfirmedFundraiser = { page: Campaign; team: Campaign | null; donorId: string };

/**
 * Uses a fundraiser sign-up link of `org` (once: its `used_at` is set in the same transaction,
 * only where still null and unexpired) and creates what it asked for: the supporter's page, a
 * PEER_TO_PEER child of the parent (its donate settings copied from the parent), in the team
 * asked for or in a new team page it starts. Pages are ACTIVE at once, or DRAFT and
 * PENDING_APPROVAL when the parent asks for approval. The supporter's donor record (made if need
 * be) owns them; `fundraiser.created` is emitted for each page. Answers null for an unknown,
 * used or expired link; 409 when the parent stopped taking pages since.
 */
export async function confirmFundraiserPage(db: Db, org: Organization, token: string): Promise<ConfirmedFundraiser | null> {
  if (!token || token.length > 200) return null;
  for (let attempt = 0; ; attempt++) {
    try {
      const made = await db.transaction(async (tx) => {
        const [signUp] = await tx
          .update(fundraiserSignUps)
          .set({ usedAt: sql`now()` })
          .where(usable(org, token))
          .returning();
        if (!signUp) return null;
        const [parent] = await tx.select().from(campaigns).where(eq(campaigns.id, signUp.parentCampaignId)).limit(1);
        assertTakesSupporterPages(parent, org);
        return createPages(tx, org, parent, signUp);
      });
      // The parent's leaderboards and the team's members list show the new page.
      if (made) dropCampaignViews([made.page.parentCampaignId, made.page.teamId]);
      return made;
    } catch (err) {
      // Two supporters picking the same title at once: the slug's unique index decides; try the next one.
      if (!isSlugRace(err) || attempt >= 4) throw err;
    }
  }
}

const isSlugRace = (err: unknown) => {
  const e = err as { code?: string; constraint_name?: string; cause?: { code?: string; constraint_name?: string } };
  const c = e.cause ?? e;
  return c.code === "23505" && c.constraint_name === "campaigns_org_slug_key";
};

async function createPages(tx: Tx, org: Organization, parent: Campaign, signUp: FundraiserSignUp): Promise<ConfirmedFundraiser> {
  const donor = await findOrCreateDonor(tx, org.id, signUp.email, signUp.firstName, signUp.lastName);
  if (signUp.locale)
    await tx
      .update(donors)
      .set({ locale: signUp.locale })
      .where(and(eq(donors.id, donor.id), isNull(donors.locale)));
  const needsApproval = parent.supporterPagesNeedApproval;
  const common = {
    orgId: org.id,
    type: "PEER_TO_PEER" as const,
    status: needsApproval ? ("DRAFT" as const) : ("ACTIVE" as const),
    moderation: needsApproval ? ("PENDING_APPROVAL" as const) : null,
    parentCampaignId: parent.id,
    fundraiserDonorId: donor.id,
    fundraiserFirstName: signUp.firstName,
    fundraiserLastName: signUp.lastName,
    suggestedAmounts: parent.suggestedAmounts,
    allowCustomAmount: parent.allowCustomAmount,
    allowRecurring: parent.allowRecurring,
    monthlyUpsell: parent.monthlyUpsell,
    minAmountCents: parent.minAmountCents,
    color: parent.color,
    endDate: parent.endDate,
    allowSupporterPages: false,
    allowTeams: false,
  };
  let team: Campaign | null = null;
  let teamId: string | null = null;
  if (signUp.teamName && parent.allowTeams) {
    [team] = await tx
      .insert(campaigns)
      .values({ ...common, id: newId("cmp"), title: signUp.teamName, slug: await freeSlug(tx, org.id, signUp.teamName), isTeam: true })
      .returning();
    teamId = team.id;
  } else if (signUp.teamId && parent.allowTeams) {
    const [joined] = await tx
      .select({ id: campaigns.id, moderation: campaigns.moderation })
      .from(campaigns)
      .where(and(eq(campaigns.id, signUp.teamId), eq(campaigns.parentCampaignId, parent.id), eq(campaigns.isTeam, true)))
      .limit(1);
    teamId = joined && joined.moderation !== "HIDDEN" ? joined.id : null;
  }
  const title = signUp.title ?? `${signUp.firstName}'s fundraiser`;
  const [page] = await tx
    .insert(campaigns)
    .values({
      ...common,
      id: newId("cmp"),
      title,
      slug: await freeSlug(tx, org.id, title),
      description: signUp.story,
      goalAmountCents: signUp.goalAmountCents,
      teamId,
    })
    .returning();
  await tx.update(fundraiserSignUps).set({ campaignId: page.id }).where(eq(fundraiserSignUps.id, signUp.id));
  for (const created of team ? [team, page] : [page]) await emitEvent(tx, org.id, "fundraiser.created", serializeCampaign(created));
  return { page, team, donorId: donor.id };
}
