/**
 * The public campaign view's in-process cache (lib/cache/public-campaign-view.ts): a donation's
 * success or refund shows in the very next view of this process; a change made behind its back
 * (straight SQL) shows once the entry's time is up; and over many organizations reusing campaign
 * slugs, with drafts and anonymous donors, each (organization, slug) answers exactly its own
 * campaign, checked against a view computed here from the rows written, not by the app's code.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { campaigns, donations, donors, organizations } from "@/db/schema";
import * as mine from "@/lib/cache/public-campaign-view";
import { cachedPublicCampaignView, dropCampaignViews, VIEW_TTL_MS } from "@/lib/cache/public-campaign-view";
import { chargeRefundedEvent, deliver, givingSetup, paymentSucceededEvent, pendingDonation } from "../fixtures/processor";
import { get, patch } from "../helpers/api";
import { testDb } from "../helpers/db";

const bySlug = (orgSlug: string, slug: string) => get(`/api/public/orgs/${orgSlug}/campaigns/${slug}`);
const byId = (id: string) => get(`/api/public/campaigns/${id}`);

afterEach(() => {
  vi.useRealTimers();
});

describe("public campaign view cache", () => {
  it("a donation's success, then its refund, shows in the next view of this process", async () => {
    const setup = await givingSetup({ goalAmountCents: 100_000, showGoal: true, showDonorRoll: true });
    const { org, campaign } = setup;
    // Time stands still: nothing here may depend on the entry's time running out.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });

    const before = await bySlug(org.slug, campaign.slug);
    expect(before.status).toBe(200);
    expect(before.body.progress).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect((await byId(campaign.id)).body.progress).toMatchObject({ raisedAmountCents: 0 });

    const d = await pendingDonation(campaign.id, { amount: 7500, firstName: "Imogen" });
    const chargeId = `ch_${randomBytes(8).toString("hex")}`;
    expect((await deliver(paymentSucceededEvent(d, { chargeId }))).status).toBe(200);

    const after = await bySlug(org.slug, campaign.slug);
    expect(after.body.progress).toMatchObject({ raisedAmountCents: 7500, donationCount: 1 });
    expect(after.body.donorRoll).toEqual([expect.objectContaining({ name: "Imogen", amountCents: 7500 })]);
    expect((await byId(campaign.id)).body.progress).toMatchObject({ raisedAmountCents: 7500, donationCount: 1 });

    const refund = chargeRefundedEvent({ chargeId, paymentIntentId: d.paymentIntentId!, amount: 7500 });
    expect((await deliver(refund)).status).toBe(200);
    const refunded = await bySlug(org.slug, campaign.slug);
    expect(refunded.body.progress).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(refunded.body.donorRoll).toEqual([]);
  });

  it("an edit of the campaign or the organization through the API shows in the next view of this process", async () => {
    const { org, owner, campaign } = await givingSetup({ title: "Spring appeal" });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await bySlug(org.slug, campaign.slug)).body.campaign.title).toBe("Spring appeal");

    expect((await patch(`/api/campaigns/${campaign.id}`, { title: "Summer appeal" }, { token: owner.token })).status).toBe(200);
    expect((await bySlug(org.slug, campaign.slug)).body.campaign.title).toBe("Summer appeal");
    expect((await byId(campaign.id)).body.campaign.title).toBe("Summer appeal");

    // A new slug answers at once, and the old one no longer does.
    const slug = `${campaign.slug}-new`;
    expect((await patch(`/api/campaigns/${campaign.id}`, { slug }, { token: owner.token })).status).toBe(200);
    expect((await bySlug(org.slug, slug)).status).toBe(200);
    expect((await bySlug(org.slug, campaign.slug)).status).toBe(404);

    expect((await patch(`/api/orgs/${org.id}`, { name: "Renamed Trust" }, { token: owner.token })).status).toBe(200);
    expect(JSON.stringify((await bySlug(org.slug, slug)).body)).toContain("Renamed Trust");
  });

  it("a drop in one copy of the cache's module reaches every other copy at once (the server loads the fast routes' modules beside Next.js's bundle)", async () => {
    const { org, campaign } = await givingSetup({ goalAmountCents: 100_000, showGoal: true });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const db = await testDb();
    // A second, separate instance of the module, as the fast path's copy is beside Next.js's.
    vi.resetModules();
    const other = await import("@/lib/cache/public-campaign-view");
    expect(other.cachedPublicCampaignView).not.toBe(cachedPublicCampaignView);
    const raised = async (copy: typeof other) =>
      (await copy.cachedPublicCampaignView(db, { orgSlug: org.slug, slug: campaign.slug }))?.view.progress?.raisedAmountCents;
    const setRaised = (cents: number) => db.update(campaigns).set({ raisedAmountCents: cents }).where(eq(campaigns.id, campaign.id));

    expect(await raised(other)).toBe(0);
    expect(await raised(mine)).toBe(0);
    // Behind both copies' backs, with the clock standing still: both still answer their entry…
    await setRaised(6100);
    expect(await raised(other)).toBe(0);
    // …until one copy drops the campaign's views: the other drops them too.
    dropCampaignViews([campaign.id]);
    expect(await raised(other)).toBe(6100);
    expect(await raised(mine)).toBe(6100);

    // The other way round, and dropping everything.
    await setRaised(7000);
    other.dropCampaignViews([campaign.id]);
    expect(await raised(mine)).toBe(7000);
    await setRaised(7100);
    other.dropAllCampaignViews();
    expect(await raised(mine)).toBe(7100);
  });

  it("a change made behind the cache's back shows once the entry's time is up", async () => {
    const { org, campaign } = await givingSetup({ goalAmountCents: 100_000, showGoal: true });
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    expect((await bySlug(org.slug, campaign.slug)).body.progress.raisedAmountCents).toBe(0);

    const db = await testDb();
    await db.update(campaigns).set({ raisedAmountCents: 4200, donationCount: 3 }).where(eq(campaigns.id, campaign.id));
    // Within its time the entry answers (the clock has not moved)…
    expect((await bySlug(org.slug, campaign.slug)).body.progress.raisedAmountCents).toBe(0);

    // …and past it, a fresh load does.
    vi.setSystemTime(Date.now() + VIEW_TTL_MS + 1);
    expect((await bySlug(org.slug, campaign.slug)).body.progress).toMatchObject({ raisedAmountCents: 4200, donationCount: 3 });

    // A campaign taken back to DRAFT behind its back is gone once the entry's time is up.
    await db.update(campaigns).set({ status: "DRAFT" }).where(eq(campaigns.id, campaign.id));
    vi.setSystemTime(Date.now() + VIEW_TTL_MS + 1);
    expect((await bySlug(org.slug, campaign.slug)).status).toBe(404);
    expect((await byId(campaign.id)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// Many organizations reusing slugs: each address answers its own campaign.

const SLUGS = ["spring", "gala", "trees"] as const;
const FIRST_NAMES = ["Ada", "Grace", "Alan", "Edsger"] as const;

type GiftModel = { firstName: string | null; anonymous: boolean; amount: number; succeeded: boolean };
type CampaignModel = { slug: (typeof SLUGS)[number]; draft: boolean; showGoal: boolean; showDonorRoll: boolean; gifts: GiftModel[] };
type World = { campaigns: CampaignModel[] }[];

const gift: fc.Arbitrary<GiftModel> = fc.record({
  firstName: fc.option(fc.constantFrom(...FIRST_NAMES), { nil: null }),
  anonymous: fc.boolean(),
  amount: fc.integer({ min: 100, max: 1_000_000 }),
  succeeded: fc.boolean(),
});
const campaignModel: fc.Arbitrary<CampaignModel> = fc.record({
  slug: fc.constantFrom(...SLUGS),
  draft: fc.boolean(),
  showGoal: fc.boolean(),
  showDonorRoll: fc.boolean(),
  gifts: fc.array(gift, { maxLength: 4 }),
});
// Up to four organizations, each with campaigns of distinct slugs drawn from the same few.
const world: fc.Arbitrary<World> = fc.array(
  fc.record({ campaigns: fc.uniqueArray(campaignModel, { selector: (c) => c.slug, minLength: 1, maxLength: SLUGS.length }) }),
  { minLength: 2, maxLength: 4 },
);

type Written = { orgId: string; orgSlug: string; orgName: string; campaignId: string; title: string; model: CampaignModel };

async function write(w: World): Promise<Written[]> {
  const db = await testDb();
  const run = randomBytes(4).toString("hex");
  const written: Written[] = [];
  for (const [i, o] of w.entries()) {
    const orgId = `org_c${run}${i}`;
    const orgSlug = `cache-${run}-${i}`;
    const orgName = `Org ${run} ${i}`;
    await db.insert(organizations).values({ id: orgId, name: orgName, slug: orgSlug, status: "ACTIVE" });
    for (const [j, c] of o.campaigns.entries()) {
      const campaignId = `cmp_c${run}${i}${j}`;
      const title = `${c.slug} of ${orgName}`;
      const succeeded = c.gifts.filter((g) => g.succeeded);
      await db.insert(campaigns).values({
        id: campaignId,
        orgId,
        title,
        slug: c.slug,
        status: c.draft ? "DRAFT" : "ACTIVE",
        showGoal: c.showGoal,
        showDonorRoll: c.showDonorRoll,
        goalAmountCents: 1_000_000,
        raisedAmountCents: succeeded.reduce((sum, g) => sum + g.amount, 0),
        donationCount: succeeded.length,
      });
      for (const [k, g] of c.gifts.entries()) {
        const donorId = `dnr_c${run}${i}${j}${k}`;
        const email = `donor-${run}-${i}-${j}-${k}@example.org`;
        await db.insert(donors).values({ id: donorId, orgId, email, firstName: g.firstName });
        await db.insert(donations).values({
          id: `don_c${run}${i}${j}${k}`,
          orgId,
          campaignId,
          donorId,
          amount: g.amount,
          email,
          firstName: g.firstName,
          anonymous: g.anonymous,
          status: g.succeeded ? "SUCCEEDED" : "FAILED",
          succeededAt: g.succeeded ? new Date() : null,
          // Distinct times, newest last: the roll lists the newest first.
          createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, k)),
        });
      }
      written.push({ orgId, orgSlug, orgName, campaignId, title, model: c });
    }
  }
  return written;
}

/** What the view of a written campaign must say, from the model alone. */
function expected(w: Written) {
  const succeeded = w.model.gifts.filter((g) => g.succeeded);
  return {
    campaign: { id: w.campaignId, title: w.title, slug: w.model.slug },
    organization: { id: w.orgId, name: w.orgName, slug: w.orgSlug },
    progress: w.model.showGoal ? { raisedAmountCents: succeeded.reduce((s, g) => s + g.amount, 0), donationCount: succeeded.length } : null,
    donorRoll: w.model.showDonorRoll
      ? succeeded.reverse().map((g) => ({ name: g.anonymous || !g.firstName ? "Anonymous" : g.firstName, amountCents: g.amount }))
      : null,
  };
}

function shown(body: any) {
  return {
    campaign: { id: body.campaign.id, title: body.campaign.title, slug: body.campaign.slug },
    organization: { id: body.organization.id, name: body.organization.name, slug: body.organization.slug },
    progress: body.progress ? { raisedAmountCents: body.progress.raisedAmountCents, donationCount: body.progress.donationCount } : null,
    donorRoll: body.donorRoll ? body.donorRoll.map((d: any) => ({ name: d.name, amountCents: d.amountCents })) : null,
  };
}

describe("public campaign view cache over many organizations", () => {
  it("each (organization, slug) answers exactly its own campaign, never a draft, anonymous donors unnamed", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const written = await write(w);
        // Every address asked for at once, twice: the second round comes from the cache.
        for (let round = 0; round < 2; round++) {
          const answers = await Promise.all(written.map((c) => Promise.all([bySlug(c.orgSlug, c.model.slug), byId(c.campaignId)])));
          for (const [i, c] of written.entries()) {
            for (const res of answers[i]) {
              if (c.model.draft) {
                expect(res.status).toBe(404);
                continue;
              }
              expect(res.status).toBe(200);
              // Equal to the model's view: anonymous (or nameless) donors are "Anonymous", drafts absent.
              expect(shown(res.body)).toEqual(expected(c));
            }
          }
          // A slug this organization does not use answers nothing, though another organization uses it.
          for (const c of written) {
            const unused = SLUGS.find((s) => !written.some((o) => o.orgId === c.orgId && o.model.slug === s));
            if (unused) expect((await bySlug(c.orgSlug, unused)).status).toBe(404);
          }
        }
      }),
      { numRuns: 8 },
    );
  });
});
