/**
 * Personal data on request, through the real routes in sandbox mode: a donor's data exported by
 * staff (JSON) and by the donor themselves, the donor erased by staff or on their own request
 * (with and without the organization's approval step). After an erasure the donor's email and
 * name appear in no list, CSV export, public donor roll or outbound webhook payload sent
 * afterwards (a later refund of their gift is delivered by the real worker to a local receiver),
 * while every total stays as it was.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import {
  auditLog,
  campaigns,
  donations,
  donorRequests,
  donors,
  donorSignInLinks,
  organizations,
  outbox,
  recurringPlans,
  reminderOptOuts,
  webhookEvents,
} from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { newId } from "@/lib/ids";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { addMember, call, get, newUser, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { donorSessionCookieFor, activeCampaign, activeOrg, paidDonation, randomEmail, type Campaign, type Org } from "../helpers/records";

const APP_ORIGIN = "http://localhost:3000";

// A local receiver for the organization's webhook endpoint: every body it got, parsed.
type Delivered = { id: string; type: string; data: Record<string, any> };
const received: { body: string; at: number }[] = [];
let server: Server;
let hookUrl = "";
const savedFlag = process.env.ALLOW_PRIVATE_WEBHOOK_URLS;

let db: Db;
const myOrgs: string[] = [];

beforeAll(async () => {
  db = await testDb();
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  resetEnv();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), at: received.length });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});

afterAll(async () => {
  if (myOrgs.length > 0) {
    await db
      .update(outbox)
      .set({ status: "FAILED", lastError: "test file finished" })
      .where(and(inArray(outbox.orgId, myOrgs), eq(outbox.status, "PENDING")));
  }
  if (savedFlag === undefined) delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  else process.env.ALLOW_PRIVATE_WEBHOOK_URLS = savedFlag;
  resetEnv();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Runs the worker for this organization until nothing is left to send. */
async function drain(org: Org) {
  for (let i = 0; i < 20; i++) {
    const r = await runWorkerOnce(db, { orgIds: [org.id] });
    if (r.delivered + r.failed === 0) return;
  }
}

type Giver = { email: string; firstName: string; lastName: string; donorId: string; oneTimeId: string; planId: string };

type Setup = { owner: TestUser; admin: TestUser; org: Org; campaign: Campaign; giver: Giver; other: { email: string; donorId: string } };

/**
 * An ACTIVE organization with a webhook endpoint for every event, a campaign showing its donor
 * roll, and a donor with distinctive names who gave once (with a message and a dedication) and
 * monthly; and another donor who stays.
 */
async function setup(): Promise<Setup> {
  const { owner, org } = await activeOrg();
  myOrgs.push(org.id);
  // Signed in once before being added, so the token's subject is the member's user ID.
  const admin = await newUser("Erasure admin");
  expect((await get("/api/orgs", { token: admin.token })).status).toBe(200);
  await addMember(org.id, owner.token, admin, "ADMIN");
  const endpoint = await post(`/api/orgs/${org.id}/webhook-endpoints`, { url: hookUrl }, { token: owner.token });
  expect(endpoint.status, endpoint.text).toBe(201);
  const campaign = await activeCampaign(org, owner, { showDonorRoll: true });
  const tag = Math.random().toString(36).slice(2, 8);
  const email = `zelda-${tag}@example.org`;
  const firstName = `Zelda${tag}`;
  const lastName = `Quintessa${tag}`;
  const oneTime = await paidDonation(campaign.id, {
    email,
    firstName,
    lastName,
    amount: 4200,
    message: `Go team from ${firstName}`,
    dedication: { type: "IN_HONOR", honoreeName: `Grandma ${lastName}`, notifyEmail: null, message: null },
  });
  const monthly = await paidDonation(campaign.id, { email, firstName, lastName, amount: 1500, recurringInterval: "MONTH" });
  const otherEmail = randomEmail("stays");
  const other = await paidDonation(campaign.id, { email: otherEmail, firstName: "Stays", lastName: "Here", amount: 3000 });
  await drain(org);
  return {
    owner,
    admin,
    org,
    campaign,
    giver: { email, firstName, lastName, donorId: oneTime.donorId, oneTimeId: oneTime.id, planId: monthly.recurringPlanId },
    other: { email: otherEmail, donorId: other.donorId },
  };
}

const asDonor = async (s: Setup, donorId = s.giver.donorId) => ({
  headers: { cookie: await donorSessionCookieFor(donorId, s.org.id), origin: APP_ORIGIN, "sec-fetch-site": "same-origin" },
});

async function donorRow(id: string) {
  const [d] = await db.select().from(donors).where(eq(donors.id, id));
  return d;
}

/** The organization's outbound webhook events of one type. */
function webhookEventsOf(org: Org, type: string) {
  return db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.orgId, org.id), eq(webhookEvents.type, type)));
}

/** The organization's audit entries of one action. */
function auditEntriesOf(org: Org, action: string) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, action)));
}

async function totals(s: Setup) {
  const [c] = await db
    .select({ raised: campaigns.raisedAmountCents, count: campaigns.donationCount })
    .from(campaigns)
    .where(eq(campaigns.id, s.campaign.id));
  const d = await donorRow(s.giver.donorId);
  return { campaign: c, donor: { total: d.totalGivenCents, count: d.donationCount, first: d.firstDonationAt, last: d.lastDonationAt } };
}

/** Everything a staff member or a visitor can list about the organization, as text. */
async function everyListing(s: Setup): Promise<Record<string, string>> {
  const t = { token: s.owner.token };
  const out: Record<string, string> = {
    donations: (await get(`/api/orgs/${s.org.id}/donations?limit=100`, t)).text,
    donationSearch: (await get(`/api/orgs/${s.org.id}/donations?q=${encodeURIComponent(s.giver.email)}`, t)).text,
    donors: (await get(`/api/orgs/${s.org.id}/donors?limit=100`, t)).text,
    donorDetail: (await get(`/api/donors/${s.giver.donorId}`, t)).text,
    donationDetail: (await get(`/api/donations/${s.giver.oneTimeId}`, t)).text,
    plans: (await get(`/api/orgs/${s.org.id}/recurring-plans`, t)).text,
    donationsCsv: (await get(`/api/orgs/${s.org.id}/donations/export`, t)).text,
    donorsCsv: (await get(`/api/orgs/${s.org.id}/donors/export`, t)).text,
    donorRoll: (await get(`/api/public/campaigns/${s.campaign.id}`)).text,
  };
  for (const [k, v] of Object.entries(out)) expect(v.length, k).toBeGreaterThan(10);
  return out;
}

function expectNoPersonalData(texts: Record<string, string>, giver: Giver) {
  for (const [where, text] of Object.entries(texts)) {
    for (const secret of [giver.email, giver.firstName, giver.lastName]) {
      expect(text.toLowerCase().includes(secret.toLowerCase()), `${where} still shows ${secret}`).toBe(false);
    }
  }
}

const parse = (bodies: { body: string }[]) => bodies.map((r) => JSON.parse(r.body) as Delivered);

describe("POST /api/orgs/:idOrSlug/donors/:id/erase", () => {
  it("POST /api/orgs/:idOrSlug/donors/:id/erase removes the donor's email and name from every list, CSV, donor roll and later webhook payload; totals stay", async () => {
    const s = await setup();
    const before = await totals(s);
    const shown = await everyListing(s);
    // The listings do show the donor before: the checks below can fail.
    expect(shown.donations).toContain(s.giver.email);
    expect(shown.donorsCsv).toContain(s.giver.email);
    expect(shown.donorRoll).toContain(s.giver.firstName);
    expect(shown.plans).toContain(s.giver.email);
    // Webhook payloads before the erasure named the donor.
    expect(received.some((r) => r.body.includes(s.giver.email))).toBe(true);

    const res = await post(`/api/orgs/${s.org.slug}/donors/${s.giver.donorId}/erase`, undefined, { token: s.admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: s.giver.donorId,
      email: `erased+${s.giver.donorId}@invalid`,
      firstName: null,
      lastName: null,
      erasedAt: expect.any(String),
      totalGivenCents: before.donor.total,
      donationCount: before.donor.count,
    });

    // Money records stay, anonymized.
    const rows = await db.select().from(donations).where(eq(donations.donorId, s.giver.donorId));
    expect(rows).toHaveLength(2);
    for (const d of rows) {
      expect(d).toMatchObject({
        email: `erased+${s.giver.donorId}@invalid`,
        firstName: null,
        lastName: null,
        message: null,
        dedication: null,
        clientIp: null,
      });
      expect(d.status).toBe("SUCCEEDED");
    }
    expect(await totals(s)).toEqual(before);
    expect(await findViolations(db, [s.org.id])).toEqual([]);

    // The open plan was canceled at the processor, as staff.
    const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, s.giver.planId));
    expect(plan).toMatchObject({ status: "CANCELED", canceledBy: "staff" });

    // Gone from every list and export; the other donor is still there.
    const after = await everyListing(s);
    expectNoPersonalData(after, s.giver);
    expect(after.donors).toContain(s.other.email);
    expect(after.donorsCsv).toContain(s.other.email);
    expect(after.donorRoll).toContain("Stays");
    // The erased donor's rows are in the CSVs, with an empty email cell.
    const donorLine = after.donorsCsv.split("\r\n").find((l) => l.startsWith(`${s.giver.donorId},`));
    expect(donorLine?.split(",").slice(0, 4)).toEqual([s.giver.donorId, "", "", ""]);
    const donationLine = after.donationsCsv.split("\r\n").find((l) => l.startsWith(`${s.giver.oneTimeId},`));
    expect(donationLine).toBeDefined();
    expect(donationLine).not.toContain("@invalid");

    // No email to the donor is left to send, and the stored ones keep no personal data.
    const emails = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orgId, s.org.id), eq(outbox.kind, "email")));
    for (const e of emails) {
      const text = JSON.stringify(e.payload).toLowerCase();
      expect(text.includes(s.giver.email.toLowerCase()), `outbox ${e.dedupeKey}`).toBe(false);
      expect(text.includes(s.giver.lastName.toLowerCase()), `outbox ${e.dedupeKey}`).toBe(false);
    }

    // A refund afterwards: its webhook payload and its (absent) email carry nothing of the donor.
    const sentBefore = received.length;
    const refund = await post(`/api/donations/${s.giver.oneTimeId}/refund`, undefined, { token: s.owner.token });
    expect(refund.status, refund.text).toBe(200);
    expect(refund.text).not.toContain(s.giver.email);
    await drain(s.org);
    const later = parse(received.slice(sentBefore).filter((r) => r.body.includes(s.org.id) || r.body.includes(s.giver.donorId)));
    const refunded = later.find((p) => p.type === "donation.refunded" && p.data.id === s.giver.oneTimeId);
    expect(refunded, "the refund was delivered").toBeDefined();
    expect(refunded!.data).toMatchObject({
      email: `erased+${s.giver.donorId}@invalid`,
      firstName: null,
      lastName: null,
      message: null,
      dedication: null,
    });
    for (const r of received.slice(sentBefore)) {
      for (const secret of [s.giver.email, s.giver.firstName, s.giver.lastName]) expect(r.body).not.toContain(secret);
    }
    const erasedEvents = later.filter((p) => p.type === "donor.erased");
    expect(erasedEvents).toHaveLength(1);
    expect(erasedEvents[0].data).toEqual({ id: s.giver.donorId });
    const refundEmails = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orgId, s.org.id), sql`${outbox.dedupeKey} like ${`email:refund:${s.giver.oneTimeId}%`}`));
    expect(refundEmails).toEqual([]);
    expect(await findViolations(db, [s.org.id])).toEqual([]);

    // One audit entry, naming the admin.
    const audit = await get(`/api/orgs/${s.org.id}/audit-log?action=donor.erased`, { token: s.owner.token });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      action: "donor.erased",
      actor: { type: "user", id: s.admin.sub },
      target: { type: "donor", id: s.giver.donorId },
    });
  });

  it("POST /api/orgs/:idOrSlug/donors/:id/erase twice answers the same and emits donor.erased once", async () => {
    const s = await setup();
    const first = await post(`/api/orgs/${s.org.id}/donors/${s.giver.donorId}/erase`, undefined, { token: s.owner.token });
    const second = await post(`/api/orgs/${s.org.id}/donors/${s.giver.donorId}/erase`, undefined, { token: s.owner.token });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await webhookEventsOf(s.org, "donor.erased")).toHaveLength(1);
    const entries = await auditEntriesOf(s.org, "donor.erased");
    expect(entries).toHaveLength(1);
  });

  it("POST /api/orgs/:idOrSlug/donors/:id/erase of another organization's donor answers 404 and erases nothing", async () => {
    const s = await setup();
    const { owner: otherOwner, org: otherOrg } = await activeOrg();
    myOrgs.push(otherOrg.id);
    const res = await post(`/api/orgs/${otherOrg.id}/donors/${s.giver.donorId}/erase`, undefined, { token: otherOwner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Donor not found", status: 404 });
    expect((await donorRow(s.giver.donorId)).erasedAt).toBeNull();
    const exported = await get(`/api/orgs/${otherOrg.id}/donors/${s.giver.donorId}/export`, { token: otherOwner.token });
    expect(exported.status).toBe(404);
  });

  it("POST /api/orgs/:idOrSlug/donors/:id/erase deletes the donor's sign-in links, and a later gift with the same email starts a new donor", async () => {
    const s = await setup();
    await db.insert(donorSignInLinks).values({
      id: newId("dsl"),
      orgId: s.org.id,
      donorId: s.giver.donorId,
      tokenHash: newId("hash"),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await post(`/api/orgs/${s.org.id}/donors/${s.giver.donorId}/erase`, undefined, { token: s.owner.token })).status).toBe(200);
    expect(await db.select().from(donorSignInLinks).where(eq(donorSignInLinks.donorId, s.giver.donorId))).toEqual([]);
    const again = await paidDonation(s.campaign.id, { email: s.giver.email, firstName: "Back", amount: 1000 });
    expect(again.donorId).not.toBe(s.giver.donorId);
    expect(await findViolations(db, [s.org.id])).toEqual([]);
  });

  it("POST /api/orgs/:idOrSlug/donors/:id/erase deletes the donor's reminder opt-outs, and only theirs", async () => {
    const { owner, org } = await activeOrg();
    const campaign = await activeCampaign(org, owner);
    const other = await activeOrg();
    const email = randomEmail("optout");
    const giver = await paidDonation(campaign.id, { email: email.toUpperCase(), firstName: "Opted", amount: 1500 });
    const neighbour = randomEmail("neighbour");
    await db.insert(reminderOptOuts).values([
      { orgId: org.id, email: email.toLowerCase() },
      { orgId: org.id, email: neighbour },
      { orgId: other.org.id, email: email.toLowerCase() },
    ]);
    expect((await post(`/api/orgs/${org.id}/donors/${giver.donorId}/erase`, undefined, { token: owner.token })).status).toBe(200);
    const left = await db
      .select({ orgId: reminderOptOuts.orgId, email: reminderOptOuts.email })
      .from(reminderOptOuts)
      .where(inArray(reminderOptOuts.orgId, [org.id, other.org.id]));
    expect(left).toEqual(
      expect.arrayContaining([
        { orgId: org.id, email: neighbour },
        { orgId: other.org.id, email: email.toLowerCase() },
      ]),
    );
    expect(left).toHaveLength(2);
  });
});

describe("GET /api/orgs/:idOrSlug/donors/:id/export", () => {
  it("GET /api/orgs/:idOrSlug/donors/:id/export downloads the donor's profile, gifts, plans, emails and requests; audit-logged", async () => {
    const s = await setup();
    const res = await get(`/api/orgs/${s.org.slug}/donors/${s.giver.donorId}/export`, { token: s.admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="donor-${s.giver.donorId}-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = res.body;
    expect(body.organization).toEqual({ id: s.org.id, name: s.org.name });
    expect(body.donor).toMatchObject({
      id: s.giver.donorId,
      email: s.giver.email,
      firstName: s.giver.firstName,
      lastName: s.giver.lastName,
      totalGivenCents: 5700,
      donationCount: 2,
      erasedAt: null,
    });
    expect(body.donations.map((d: any) => d.id).sort()).toEqual(
      (await db.select({ id: donations.id }).from(donations).where(eq(donations.donorId, s.giver.donorId))).map((d) => d.id).sort(),
    );
    const gift = body.donations.find((d: any) => d.id === s.giver.oneTimeId);
    expect(gift).toMatchObject({
      amount: 4200,
      message: `Go team from ${s.giver.firstName}`,
      campaignTitle: s.campaign.title,
      status: "SUCCEEDED",
    });
    expect(body.recurringPlans).toEqual([expect.objectContaining({ id: s.giver.planId, status: "ACTIVE", email: s.giver.email })]);
    // Both receipts, with their subjects and statuses; never a body or other props.
    const receipts = body.emails.filter((e: any) => e.type === "email.receipt");
    expect(receipts).toHaveLength(2);
    for (const e of body.emails) {
      expect(Object.keys(e).sort()).toEqual(["queuedAt", "sentAt", "status", "subject", "type"]);
      expect(e.subject).toEqual(expect.any(String));
    }
    expect(body.emails.every((e: any) => e.type !== "email.admin-notification")).toBe(true);
    expect(body.requests).toEqual([]);

    const entries = await auditEntriesOf(s.org, "donor.exported");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorId: s.admin.sub, targetType: "donor", targetId: s.giver.donorId });
  });

  it("GET /api/orgs/:idOrSlug/donors/:id/export of an erased donor holds no personal data", async () => {
    const s = await setup();
    await post(`/api/orgs/${s.org.id}/donors/${s.giver.donorId}/erase`, undefined, { token: s.owner.token });
    const res = await get(`/api/orgs/${s.org.id}/donors/${s.giver.donorId}/export`, { token: s.owner.token });
    expect(res.status).toBe(200);
    expectNoPersonalData({ export: res.text }, s.giver);
    expect(res.body.donations).toHaveLength(2);
    expect(res.body.emails).toEqual([]);
  });
});

describe("donor-side requests", () => {
  it("POST /api/donor/orgs/:orgSlug/data-export answers the donor's own data at once, without internal fields", async () => {
    const s = await setup();
    const res = await call("POST", `/api/donor/orgs/${s.org.slug}/data-export`, await asDonor(s));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="donor-/);
    expect(res.body.donor).toMatchObject({ email: s.giver.email, firstName: s.giver.firstName, totalGivenCents: 5700 });
    expect(res.body.donations).toHaveLength(2);
    for (const field of ["paymentIntentId", "subscriptionId", "orgId", "donorId", "feeCents", "failureReason", "clientIp"]) {
      expect(res.text).not.toContain(`"${field}"`);
    }
    expect(res.body.recurringPlans).toEqual([expect.objectContaining({ id: s.giver.planId, amount: 1500, interval: "MONTH" })]);
    expect(res.body.requests).toEqual([expect.objectContaining({ kind: "EXPORT", status: "COMPLETED" })]);
    // Another donor's data never appears.
    expect(res.text).not.toContain(s.other.email);
  });

  it("POST /api/donor/orgs/:orgSlug/data-export without the donor cookie answers 401", async () => {
    const s = await setup();
    const res = await call("POST", `/api/donor/orgs/${s.org.slug}/data-export`, { headers: { origin: APP_ORIGIN } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
  });

  it("POST /api/donor/orgs/:orgSlug/erasure without approval erases the donor now and signs them out", async () => {
    const s = await setup();
    const before = await totals(s);
    const res = await call("POST", `/api/donor/orgs/${s.org.slug}/erasure`, await asDonor(s));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "ERASED", requestId: expect.stringMatching(/^dreq_/) });
    expect(res.headers.get("set-cookie")).toMatch(new RegExp(`gf_donor_${s.org.id}=;.*Max-Age=0`));
    const donor = await donorRow(s.giver.donorId);
    expect(donor).toMatchObject({ email: `erased+${s.giver.donorId}@invalid`, firstName: null, lastName: null });
    expect(donor.erasedAt).not.toBeNull();
    expect(await totals(s)).toEqual(before);
    expectNoPersonalData(await everyListing(s), s.giver);
    const [request] = await db.select().from(donorRequests).where(eq(donorRequests.id, res.body.requestId));
    expect(request).toMatchObject({ kind: "ERASURE", status: "COMPLETED" });
    const [entry] = await auditEntriesOf(s.org, "donor.erased");
    expect(entry).toMatchObject({ actorType: "donor", actorId: s.giver.donorId, targetId: s.giver.donorId });
    // The append-only log keeps nothing personal of the erased donor.
    expectNoPersonalData({ audit: JSON.stringify(entry) }, s.giver);
    // The old cookie no longer signs anyone in.
    expect((await call("POST", `/api/donor/orgs/${s.org.slug}/data-export`, await asDonor(s))).status).toBe(401);
  });

  it("POST /api/donor/orgs/:orgSlug/erasure with approval on waits as PENDING (202), tells staff once; reject, then approve a new request", async () => {
    const s = await setup();
    await db.update(organizations).set({ donorErasureNeedsApproval: true }).where(eq(organizations.id, s.org.id));
    const first = await call("POST", `/api/donor/orgs/${s.org.slug}/erasure`, await asDonor(s));
    expect(first.status, first.text).toBe(202);
    expect(first.body).toEqual({ status: "PENDING", requestId: expect.stringMatching(/^dreq_/) });
    expect(first.headers.get("set-cookie")).toBeNull();
    const again = await call("POST", `/api/donor/orgs/${s.org.slug}/erasure`, await asDonor(s));
    expect(again.status).toBe(202);
    expect(again.body.requestId).toBe(first.body.requestId);
    expect((await donorRow(s.giver.donorId)).erasedAt).toBeNull();

    const notices = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orgId, s.org.id), sql`${outbox.payload}->>'template' = 'donor-erasure-request'`));
    expect(notices).toHaveLength(1);
    expect(notices[0].payload).toMatchObject({ to: s.org.notificationEmail, props: { donorEmail: s.giver.email } });

    // Staff see it first in the list.
    const otherRequest = await db
      .insert(donorRequests)
      .values({ id: newId("dreq"), orgId: s.org.id, donorId: s.other.donorId, kind: "EXPORT", status: "COMPLETED", decidedAt: new Date() })
      .returning();
    const listed = await get(`/api/orgs/${s.org.id}/donor-requests`, { token: s.admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((r: any) => r.id)).toEqual([first.body.requestId, otherRequest[0].id]);
    expect(listed.body.data[0]).toMatchObject({ kind: "ERASURE", status: "PENDING", donorId: s.giver.donorId, donorEmail: s.giver.email });

    const rejected = await post(`/api/orgs/${s.org.id}/donor-requests/${first.body.requestId}/reject`, undefined, { token: s.admin.token });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ status: "REJECTED", decidedBy: s.admin.sub });
    const late = await post(`/api/orgs/${s.org.id}/donor-requests/${first.body.requestId}/approve`, undefined, { token: s.admin.token });
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: "Donor request was already decided", status: 409 });
    expect((await donorRow(s.giver.donorId)).erasedAt).toBeNull();

    const second = await call("POST", `/api/donor/orgs/${s.org.slug}/erasure`, await asDonor(s));
    expect(second.status).toBe(202);
    expect(second.body.requestId).not.toBe(first.body.requestId);
    const before = await totals(s);
    const approved = await post(`/api/orgs/${s.org.id}/donor-requests/${second.body.requestId}/approve`, undefined, {
      token: s.admin.token,
    });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: "COMPLETED", decidedBy: s.admin.sub, donorEmail: null });
    expect((await donorRow(s.giver.donorId)).erasedAt).not.toBeNull();
    expect(await totals(s)).toEqual(before);
    expectNoPersonalData(await everyListing(s), s.giver);
    // The staff notice no longer holds the donor's address either.
    const [notice] = await db.select().from(outbox).where(eq(outbox.id, notices[0].id));
    expect(JSON.stringify(notice.payload)).not.toContain(s.giver.email);
    // Approving again answers the completed request; nothing is emitted twice.
    const twice = await post(`/api/orgs/${s.org.id}/donor-requests/${second.body.requestId}/approve`, undefined, { token: s.admin.token });
    expect(twice.status).toBe(200);
    expect(twice.body.status).toBe("COMPLETED");
    expect(await webhookEventsOf(s.org, "donor.erased")).toHaveLength(1);
  });

  it("POST /api/orgs/:idOrSlug/donor-requests/:id/approve of an unknown request answers 404", async () => {
    const s = await setup();
    const res = await post(`/api/orgs/${s.org.id}/donor-requests/dreq_unknown/approve`, undefined, { token: s.owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Donor request not found", status: 404 });
  });
});
