/**
 * Supporters' fundraiser pages (contract section 14): POST /api/public/campaigns/:id/fundraisers
 * (a confirmation link by email), the confirmation route that creates the page and signs the
 * supporter in, approval, teams, the supporter's own API, staff moderation and lists, the public
 * leaderboards, and the roll-up page → team → parent under random gifts, refunds and disputes included.
 */
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as confirmRoute } from "@/app/o/[orgSlug]/account/fundraiser/confirm/route";
import { campaigns, donations, outbox, webhookEvents } from "@/db/schema";
import type { EmailMessage } from "@/lib/email/types";
import { serializeDonation } from "@/lib/schemas/donations";
import { deliver, disputeEvent } from "../fixtures/processor";
import { get, newCampaign, patch, post, randomIp, type ApiResponse } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrg, memberOf, outsider, paidDonation, randomEmail, type Campaign, type Org } from "../helpers/records";

const SAME_ORIGIN = { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" };

type Owner = Awaited<ReturnType<typeof activeOrg>>["owner"];
let org: Org;
let owner: Owner;
let parent: Campaign;

beforeAll(async () => {
  ({ org, owner } = await activeOrg());
  parent = await activeCampaign(org, owner, { title: "River Run", type: "PEER_TO_PEER", goalAmountCents: 1_000_000 });
});

async function confirmEmails(to: string): Promise<EmailMessage<"fundraiser-confirm">[]> {
  const db = await testDb();
  const rows = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = 'fundraiser-confirm'`, sql`${outbox.payload}->>'to' = ${to}`))
    .orderBy(outbox.id);
  return rows.map((r) => r.payload as unknown as EmailMessage<"fundraiser-confirm">);
}

async function emailsTo(to: string, template: string) {
  const db = await testDb();
  const rows = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = ${template}`, sql`${outbox.payload}->>'to' = ${to}`));
  return rows.map((r) => r.payload as Record<string, any>);
}

const startBody = (email: string, extra: Record<string, unknown> = {}) => ({ email, firstName: "Maya", lastName: "Okafor", ...extra });

async function confirm(orgSlug: string, token: string, headers: Record<string, string> = SAME_ORIGIN): Promise<Response> {
  const req = new NextRequest(new URL(`/o/${orgSlug}/account/fundraiser/confirm`, "http://localhost:3000"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ token }).toString(),
  });
  return confirmRoute(req, { params: Promise.resolve({ orgSlug }) });
}

/** Start a page through the API, use the emailed link; answers the page and the supporter's cookie. */
async function startPage(p: Campaign, email: string, extra: Record<string, unknown> = {}) {
  const res = await post(`/api/public/campaigns/${p.id}/fundraisers`, startBody(email, extra), { ip: randomIp() });
  expect(res.status, res.text).toBe(202);
  expect(res.body).toEqual({ sent: true });
  const url = new URL((await confirmEmails(email)).at(-1)!.props.url);
  expect(url.pathname).toBe(`/o/${org.slug}/account/fundraiser`);
  const token = url.searchParams.get("token")!;
  const done = await confirm(org.slug, token);
  expect(done.status).toBe(303);
  const pageId = new URL(done.headers.get("location")!, "http://localhost:3000/o/x/account/fundraiser/confirm").searchParams.get(
    "fundraiser",
  )!;
  const cookie = done.headers.get("set-cookie")!.split(";")[0];
  const [page] = await (await testDb()).select().from(campaigns).where(eq(campaigns.id, pageId));
  return { page, cookie, token };
}

const supporterGet = (path: string, cookie?: string): Promise<ApiResponse> => get(path, { headers: cookie ? { cookie } : {} });

describe("POST /api/public/campaigns/:id/fundraisers", () => {
  it("POST /api/public/campaigns/:id/fundraisers emails a single-use link that creates an ACTIVE page and signs the supporter in", async () => {
    const email = randomEmail("maya");
    const { page, cookie, token } = await startPage(parent, email, {
      title: "Maya runs",
      story: "<b>Clean</b> water<script>x</script>",
      goalAmountCents: 50_000,
    });
    expect(page).toMatchObject({
      parentCampaignId: parent.id,
      type: "PEER_TO_PEER",
      status: "ACTIVE",
      moderation: null,
      title: "Maya runs",
      description: "Clean water",
      goalAmountCents: 50_000,
      fundraiserFirstName: "Maya",
      fundraiserLastName: "Okafor",
    });
    // The link works once.
    const again = await confirm(org.slug, token);
    expect(again.headers.get("location")).toContain("link=expired");
    expect(again.headers.get("set-cookie")).toBeNull();

    const mine = await supporterGet(`/api/supporter/orgs/${org.slug}/fundraisers`, cookie);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.data.map((p: any) => p.id)).toEqual([page.id]);
    expect(mine.body.data[0]).toMatchObject({ raisedAmountCents: 0, pageUrl: expect.stringContaining(`/donate/${page.slug}`) });
  });

  it("POST /api/public/campaigns/:id/fundraisers keeps pages DRAFT and PENDING_APPROVAL when the parent asks for approval; staff approve them", async () => {
    const p = await activeCampaign(org, owner, { type: "PEER_TO_PEER", supporterPagesNeedApproval: true });
    const { page } = await startPage(p, randomEmail("wait"));
    expect(page).toMatchObject({ status: "DRAFT", moderation: "PENDING_APPROVAL" });
    expect((await get(`/api/public/campaigns/${page.id}`)).status).toBe(404);

    const member = await memberOf(org, owner, "MEMBER");
    expect((await post(`/api/campaigns/${page.id}/approve`, undefined, { token: member.token })).status).toBe(403);
    expect((await post(`/api/campaigns/${page.id}/approve`)).status).toBe(401);
    const stranger = await outsider();
    expect((await post(`/api/campaigns/${page.id}/approve`, undefined, { token: stranger.token })).status).toBe(403);
    const approved = await post(`/api/campaigns/${page.id}/approve`, undefined, { token: owner.token });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: "ACTIVE", moderation: "APPROVED" });
    expect((await get(`/api/public/campaigns/${page.id}`)).status).toBe(200);
    // Outbound webhooks: the page's creation and its approval, each once.
    const events = await (
      await testDb()
    )
      .select({ type: webhookEvents.type, payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.orgId, org.id), sql`${webhookEvents.payload}->'data'->>'id' = ${page.id}`));
    expect(events.map((e) => e.type).sort()).toEqual(["fundraiser.approved", "fundraiser.created"]);

    const hidden = await post(`/api/campaigns/${page.id}/hide`, undefined, { token: owner.token });
    expect(hidden.body).toMatchObject({ status: "PAUSED", moderation: "HIDDEN" });
    expect((await get(`/api/public/campaigns/${page.id}`)).status).toBe(404);
    // A campaign staff made is not a supporter's page.
    expect((await post(`/api/campaigns/${p.id}/hide`, undefined, { token: owner.token })).status).toBe(409);
  });

  it("POST /api/public/campaigns/:id/fundraisers answers 409 for a paused parent or one not taking pages, 400 for a bad body", async () => {
    const paused = await activeCampaign(org, owner, { type: "PEER_TO_PEER" });
    await patch(`/api/campaigns/${paused.id}`, { status: "PAUSED" }, { token: owner.token });
    const closed = await activeCampaign(org, owner, { type: "PEER_TO_PEER", allowSupporterPages: false });
    const plain = await activeCampaign(org, owner, { type: "DONATION" });
    // A parent still in DRAFT is not open yet: 409 too, not 404.
    const draft = await newCampaign(org, owner.token, { title: "Draft walk", type: "PEER_TO_PEER", status: "DRAFT" });
    expect(draft.status).toBe("DRAFT");
    for (const c of [paused, closed, plain, draft]) {
      const res = await post(`/api/public/campaigns/${c.id}/fundraisers`, startBody(randomEmail()), { ip: randomIp() });
      expect(res.status, res.text).toBe(409);
      expect(res.body).toMatchObject({ status: 409, error: expect.any(String), code: "supporter_pages_closed" });
    }
    expect((await post(`/api/public/campaigns/cmp_missing/fundraisers`, startBody(randomEmail()), { ip: randomIp() })).status).toBe(404);
    const bad = await post(`/api/public/campaigns/${parent.id}/fundraisers`, { email: "nope", firstName: "" }, { ip: randomIp() });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details.fieldErrors)).toEqual(expect.arrayContaining(["email", "firstName", "lastName"]));
    const noTeams = await activeCampaign(org, owner, { type: "PEER_TO_PEER", allowTeams: false });
    const team = await post(`/api/public/campaigns/${noTeams.id}/fundraisers`, startBody(randomEmail(), { team: { name: "Runners" } }), {
      ip: randomIp(),
    });
    expect(team.status).toBe(400);
  });
});

describe("supporter's own pages", () => {
  it("PATCH /api/supporter/fundraisers/:id edits the supporter's page; another supporter's page is 404, no cookie 401", async () => {
    const a = await startPage(parent, randomEmail("a"));
    const b = await startPage(parent, randomEmail("b"));
    const edited = await patch(
      `/api/supporter/fundraisers/${a.page.id}`,
      { title: "New title", story: "<p>My <em>story</em></p>", goalAmountCents: 70_000, coverImageUrl: "https://img.example.org/x.jpg" },
      { headers: { cookie: a.cookie, ...SAME_ORIGIN } },
    );
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({
      title: "New title",
      story: "My story",
      goalAmountCents: 70_000,
      coverImageUrl: "https://img.example.org/x.jpg",
    });

    const other = await patch(
      `/api/supporter/fundraisers/${b.page.id}`,
      { title: "Mine now" },
      { headers: { cookie: a.cookie, ...SAME_ORIGIN } },
    );
    expect(other.status).toBe(404);
    expect((await patch(`/api/supporter/fundraisers/${a.page.id}`, { title: "x" })).status).toBe(401);
    expect((await supporterGet(`/api/supporter/orgs/${org.slug}/fundraisers`)).status).toBe(401);
    const cross = await patch(
      `/api/supporter/fundraisers/${a.page.id}`,
      { title: "x" },
      { headers: { cookie: a.cookie, "sec-fetch-site": "cross-site", origin: "https://evil.example" } },
    );
    expect(cross.status).toBe(403);
  });

  it("a gift to a supporter's page is listed with its message and emailed to the supporter, and the goal once", async () => {
    const email = randomEmail("goal");
    const { page, cookie } = await startPage(parent, email, { goalAmountCents: 3_000 });
    await paidDonation(page.id, { amount: 2_000, firstName: "Sam", lastName: "Lee", message: "Go Maya!" });
    await paidDonation(page.id, { amount: 1_500, anonymous: true, message: "secret" });
    const gifts = await supporterGet(`/api/supporter/orgs/${org.slug}/fundraisers/gifts`, cookie);
    expect(gifts.status, gifts.text).toBe(200);
    expect(gifts.body.data.map((g: any) => [g.donorName, g.amount])).toEqual([
      ["Anonymous", 1_500],
      ["Sam Lee", 2_000],
    ]);
    const giftEmails = await emailsTo(email, "fundraiser-gift");
    expect(giftEmails).toHaveLength(2);
    expect(giftEmails.map((e) => e.props.donorName).sort()).toEqual(["Sam Lee", null].sort());
    expect(await emailsTo(email, "fundraiser-goal")).toHaveLength(1);

    // Opted out: no more emails.
    await patch(`/api/supporter/fundraisers/${page.id}`, { giftEmails: false }, { headers: { cookie, ...SAME_ORIGIN } });
    await paidDonation(page.id, { amount: 1_000 });
    expect(await emailsTo(email, "fundraiser-gift")).toHaveLength(2);
  });
});

describe("teams, leaderboards and roll-up", () => {
  it("a team page lists its members; gifts roll up page → team → parent, refunds and disputes included, for random sequences", async () => {
    const p = await activeCampaign(org, owner, { type: "PEER_TO_PEER" });
    const captain = await startPage(p, randomEmail("captain"), { title: "Captain page", team: { name: "Riverside Runners" } });
    const teamId = captain.page.teamId!;
    expect(teamId).toBeTruthy();
    const member = await startPage(p, randomEmail("member"), { title: "Member page", teamId });
    expect(member.page.teamId).toBe(teamId);
    const solo = await startPage(p, randomEmail("solo"), { title: "Solo page" });
    const targets = [captain.page.id, member.page.id, teamId, solo.page.id, p.id];

    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            target: fc.integer({ min: 0, max: 4 }),
            amount: fc.integer({ min: 100, max: 20_000 }),
            after: fc.constantFrom("none", "refund", "disputeOpen", "disputeWon", "disputeLost"),
          }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        async (gifts) => {
          await Promise.all(
            gifts.map(async (g) => {
              const d = await paidDonation(targets[g.target], { amount: g.amount });
              if (g.after === "refund") {
                const r = await post(`/api/donations/${d.id}/refund`, undefined, { token: owner.token });
                expect(r.status, r.text).toBeLessThan(300);
              } else if (g.after !== "none") {
                // The processor's dispute events: opened (the gift stops counting), then won (it counts again) or lost.
                const [row] = await (await testDb()).select({ chargeId: donations.chargeId }).from(donations).where(eq(donations.id, d.id));
                const dispute = {
                  disputeId: `du_${d.id}`,
                  chargeId: row.chargeId ?? `ch_${d.id}`,
                  paymentIntentId: d.paymentIntentId,
                  amount: d.amount,
                };
                const opened = await deliver(disputeEvent("charge.dispute.created", dispute));
                expect(opened.status, opened.text).toBe(200);
                if (g.after !== "disputeOpen") {
                  const status = g.after === "disputeWon" ? "won" : "lost";
                  const closed = await deliver(disputeEvent("charge.dispute.closed", { ...dispute, status }));
                  expect(closed.status, closed.text).toBe(200);
                }
                const after = (await get(`/api/donations/${d.id}`, { token: owner.token })).body;
                expect(after.status).toBe({ disputeOpen: "DISPUTED", disputeWon: "SUCCEEDED", disputeLost: "REFUNDED" }[g.after]);
              }
            }),
          );
          expect(await findViolations(await testDb(), [org.id])).toEqual([]);
        },
      ),
      { numRuns: 4 },
    );
    const view = await get(`/api/public/campaigns/${teamId}`);
    expect(view.body.members.map((m: any) => m.id).sort()).toEqual([captain.page.id, member.page.id].sort());
  }, 300_000);

  it("a gift's donation.succeeded event and receipt email carry the receipt number it took: on a page, its team, the parent and a campaign of its own", async () => {
    const p = await activeCampaign(org, owner, { type: "PEER_TO_PEER" });
    const captain = await startPage(p, randomEmail("captain"), { title: "Harbour page", team: { name: "Harbour Walkers" } });
    const own = await activeCampaign(org, owner);
    const db = await testDb();
    const numbers: string[] = [];
    for (const target of [captain.page.id, captain.page.teamId!, p.id, own.id]) {
      const email = randomEmail();
      const d = await paidDonation(target, { email });
      const [row] = await db.select().from(donations).where(eq(donations.id, d.id));
      expect(row.receiptNumber).toMatch(/^\d{4}-\d{6}$/);
      numbers.push(row.receiptNumber!);
      const events = await db
        .select({ payload: webhookEvents.payload })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.type, "donation.succeeded"), sql`${webhookEvents.payload}->'data'->>'id' = ${d.id}`));
      expect(events).toHaveLength(1);
      expect((events[0].payload as Record<string, any>).data).toEqual(serializeDonation(row));
      const receipts = await emailsTo(email, "receipt");
      expect(receipts).toHaveLength(1);
      expect(receipts[0].props.receipt.number).toBe(row.receiptNumber);
    }
    expect(new Set(numbers).size).toBe(4);
  });

  it("GET /api/public/campaigns/:id/fundraisers ranks pages by amount raised, pages and searches; the parent's view has top 10 fundraisers and teams", async () => {
    const p = await activeCampaign(org, owner, { type: "PEER_TO_PEER" });
    const pages = [];
    for (const [i, amount] of [3_000, 9_000, 1_000].entries()) {
      const s = await startPage(p, randomEmail(`lb${i}`), { title: `Runner ${i}` });
      await paidDonation(s.page.id, { amount });
      pages.push(s.page);
    }
    const all = await get(`/api/public/campaigns/${p.id}/fundraisers`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((e: any) => e.name)).toEqual(["Runner 1", "Runner 0", "Runner 2"]);
    expect(all.body.data[0]).toMatchObject({ raisedAmountCents: 9_000, pageUrl: expect.stringContaining("/donate/") });
    const paged = await get(`/api/public/campaigns/${p.id}/fundraisers?limit=2&page=2`);
    expect(paged.body.data.map((e: any) => e.name)).toEqual(["Runner 2"]);
    expect(paged.body.pagination).toMatchObject({ page: 2, limit: 2, total: 3, hasMore: false });
    const found = await get(`/api/public/campaigns/${p.id}/fundraisers?q=runner%200`);
    expect(found.body.data.map((e: any) => e.name)).toEqual(["Runner 0"]);
    const view = await get(`/api/public/campaigns/${p.id}`);
    expect(view.body.fundraisers.map((e: any) => e.name)).toEqual(["Runner 1", "Runner 0", "Runner 2"]);
    expect(view.body.teams).toEqual([]);
    expect(view.body.progress.raisedAmountCents).toBe(13_000);
  });
});

describe("staff", () => {
  it("GET /api/campaigns/:id/fundraisers lists pages and teams (401, 403, 404), exports CSV, and emails every fundraiser once", async () => {
    const p = await activeCampaign(org, owner, { type: "PEER_TO_PEER" });
    const email = randomEmail("staffview");
    const s = await startPage(p, email, { team: { name: "Staff Team" } });
    await startPage(p, email, { title: "Second page of the same supporter" });
    expect((await get(`/api/campaigns/${p.id}/fundraisers`)).status).toBe(401);
    expect((await get(`/api/campaigns/${p.id}/fundraisers`, { token: (await outsider()).token })).status).toBe(403);
    expect((await get(`/api/campaigns/cmp_missing/fundraisers`, { token: owner.token })).status).toBe(404);
    const member = await memberOf(org, owner, "MEMBER");
    const list = await get(`/api/campaigns/${p.id}/fundraisers`, { token: member.token });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data[0]).toMatchObject({ isTeam: true, id: s.page.teamId });

    const csv = await get(`/api/campaigns/${p.id}/fundraisers/export`, { token: member.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text.split("\r\n").filter(Boolean)).toHaveLength(4);

    expect(
      (await post(`/api/campaigns/${p.id}/fundraisers/email`, { subject: "Hi", body: "Race day" }, { token: member.token })).status,
    ).toBe(403);
    const sent = await post(`/api/campaigns/${p.id}/fundraisers/email`, { subject: "Hi", body: "Race day" }, { token: owner.token });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toEqual({ queued: 1 });
    expect(await emailsTo(email, "fundraiser-message")).toHaveLength(1);
  });
});
