import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, donationEvents, outbox, webhookEvents } from "@/db/schema";
import { nasty, wrongType } from "../helpers/arbitraries";
import { call, get, patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import {
  activeCampaign,
  activeOrg,
  activeOrgAndCampaign,
  memberOf,
  outsider,
  paidDonation,
  randomEmail,
  type Org,
} from "../helpers/records";

const RECEIPT = /^\d{4}-\d{6}$/;
/** Last year: a date always in the past, in a year of its own for the receipt numbers. */
const YEAR = new Date().getUTCFullYear() - 1;

const cheque = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  campaignId,
  amount: 25_000,
  receivedAt: `${YEAR}-03-04`,
  method: "CHEQUE",
  reference: "Cheque 1042",
  donor: { email: randomEmail("cheque"), firstName: "Ada", lastName: "Lovelace" },
  ...extra,
});

async function record(org: Org, token: string, body: Record<string, unknown>) {
  const res = await post(`/api/orgs/${org.id}/offline-gifts`, body, { token });
  expect(res.status, res.text).toBe(201);
  return res.body as Record<string, any>;
}

const campaignOf = async (id: string, token: string) => (await get(`/api/campaigns/${id}`, { token })).body;

async function noViolations(orgId: string) {
  expect(await findViolations(await testDb(), [orgId])).toEqual([]);
}

describe("POST /api/orgs/:idOrSlug/offline-gifts", () => {
  it("POST /api/orgs/:idOrSlug/offline-gifts records a SUCCEEDED OFFLINE gift that counts like a card gift", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const gift = await record(org, owner.token, cheque(campaign.id));
    expect(gift).toMatchObject({
      status: "SUCCEEDED",
      source: "OFFLINE",
      method: "CHEQUE",
      reference: "Cheque 1042",
      amount: 25_000,
      currency: org.currency,
      succeededAt: `${YEAR}-03-04T00:00:00.000Z`,
      advantageCents: 0,
      deductibleAmountCents: 25_000,
      receiptStatus: "ISSUED",
      giftAid: false,
      paymentIntentId: null,
    });
    expect(gift.receiptNumber).toMatch(new RegExp(`^${YEAR}-\\d{6}$`));
    const c = await campaignOf(campaign.id, owner.token);
    expect(c).toMatchObject({ raisedAmountCents: 25_000, donationCount: 1 });
    const donor = (await get(`/api/donors/${gift.donorId}`, { token: owner.token })).body;
    expect(donor).toMatchObject({ totalGivenCents: 25_000, donationCount: 1 });
    const db = await testDb();
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.orgId, org.id));
    expect(events.map((e) => e.type)).toContain("donation.succeeded");
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, "donation.recorded")));
    expect(audit).toHaveLength(1);
    // No receipt unless asked.
    const receipts = await db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, `email:receipt:${gift.id}`));
    expect(receipts).toHaveLength(0);
    await noViolations(org.id);
  });

  it("POST /api/orgs/:idOrSlug/offline-gifts matches the donor by email (case-insensitive), by id, and queues the receipt when asked", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const card = await paidDonation(campaign.id, { email: "Grace.Hopper@Example.org", firstName: "Grace", lastName: "Hopper" });
    const byEmail = await record(
      org,
      owner.token,
      cheque(campaign.id, { donor: { email: "grace.hopper@example.org", firstName: "Grace", lastName: "Hopper" }, sendReceipt: true }),
    );
    expect(byEmail.donorId).toBe(card.donorId);
    const byId = await record(org, owner.token, cheque(campaign.id, { method: "CASH", reference: null, donor: { id: card.donorId } }));
    expect(byId).toMatchObject({ donorId: card.donorId, method: "CASH", reference: null, email: card.email });
    const donor = (await get(`/api/donors/${card.donorId}`, { token: owner.token })).body;
    expect(donor).toMatchObject({ totalGivenCents: card.amount + 50_000, donationCount: 3 });
    const db = await testDb();
    expect(
      await db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupeKey, `email:receipt:${byEmail.id}`)),
    ).toHaveLength(1);
    expect(
      await db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupeKey, `email:receipt:${byId.id}`)),
    ).toHaveLength(0);
    // Three gifts, three consecutive numbers (the card gift's year is this year).
    expect(new Set([card.receiptNumber, byEmail.receiptNumber, byId.receiptNumber]).size).toBe(3);
    await noViolations(org.id);
  });

  it("POST /api/orgs/:idOrSlug/offline-gifts counts in a peer-to-peer parent's totals and a reached milestone alerts", async () => {
    const { owner, org } = await activeOrg();
    const parent = await activeCampaign(org, owner, { type: "PEER_TO_PEER", goalAmountCents: 40_000 });
    const page = await activeCampaign(org, owner, { title: "Ada's page", parentCampaignId: parent.id });
    await record(org, owner.token, cheque(page.id, { amount: 20_000 }));
    expect(await campaignOf(parent.id, owner.token)).toMatchObject({ raisedAmountCents: 20_000, donationCount: 1 });
    const db = await testDb();
    const alerts = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.dedupeKey} like ${`email:milestone:${parent.id}:%`}`);
    expect(alerts.map((a) => a.dedupeKey).sort()).toEqual([25, 50].map((p) => `email:milestone:${parent.id}:${p}`));
    await noViolations(org.id);
  });

  it("POST /api/orgs/:idOrSlug/offline-gifts answers 404 for another organization's campaign or donor", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const other = await activeOrgAndCampaign();
    const res = await post(`/api/orgs/${org.id}/offline-gifts`, cheque(other.campaign.id), { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
    const theirs = await record(other.org, other.owner.token, cheque(other.campaign.id));
    const byDonor = await post(`/api/orgs/${org.id}/offline-gifts`, cheque(campaign.id, { donor: { id: theirs.donorId } }), {
      token: owner.token,
    });
    expect(byDonor.status).toBe(404);
    expect(byDonor.body).toEqual({ error: "Donor not found", status: 404 });
  });

  it("POST /api/orgs/:idOrSlug/offline-gifts answers 401 without a token, 403 to a non-member and to a MEMBER, 404 for an unknown organization", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    expect((await post(`/api/orgs/${org.id}/offline-gifts`, cheque(campaign.id))).status).toBe(401);
    expect((await post(`/api/orgs/${org.id}/offline-gifts`, cheque(campaign.id), { token: (await outsider()).token })).status).toBe(403);
    const member = await memberOf(org, owner, "MEMBER");
    expect((await post(`/api/orgs/${org.id}/offline-gifts`, cheque(campaign.id), { token: member.token })).status).toBe(403);
    const unknown = await post(`/api/orgs/org_unknown000000000000/offline-gifts`, cheque(campaign.id), { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe("Organization not found");
  });

  it.each([
    ["amount", { amount: 0 }],
    ["amount", { amount: 12.5 }],
    ["method", { method: "CARD" }],
    ["receivedAt", { receivedAt: "yesterday" }],
    ["receivedAt", { receivedAt: "2999-01-01" }],
    ["advantageCents", { advantageCents: 30_000 }],
    ["currency", { currency: "jpy" }],
    ["donor", { donor: { firstName: "Ada" } }],
    ["donor.email", { donor: { email: "not-an-email", firstName: "Ada", lastName: "Lovelace" } }],
    ["campaignId", { campaignId: undefined }],
  ])("POST /api/orgs/:idOrSlug/offline-gifts rejects a bad %s with 400", async (field, extra) => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const res = await post(`/api/orgs/${org.id}/offline-gifts`, cheque(campaign.id, extra), { token: owner.token });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("Validation failed");
    expect(Object.keys(res.body.details.fieldErrors).some((k) => k === field || k.startsWith(`${field}.`))).toBe(true);
    expect((await campaignOf(campaign.id, owner.token)).raisedAmountCents).toBe(0);
  });

  it("POST /api/orgs/:idOrSlug/offline-gifts never answers 500 to random bodies (fuzz)", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const value = fc.oneof(nasty, fc.integer({ min: -1e9, max: 1e12 }), fc.boolean(), fc.constant(null), wrongType(nasty));
    const body = fc.record(
      {
        campaignId: fc.oneof(fc.constant(campaign.id), value),
        amount: fc.oneof(fc.integer({ min: -10, max: 200_000_000 }), value),
        receivedAt: fc.oneof(fc.constantFrom(`${YEAR}-01-01`, `${YEAR}-01-01T10:00:00Z`, "0000-00-00"), value),
        method: fc.oneof(fc.constantFrom("CASH", "CHEQUE", "STOCK"), value),
        reference: value,
        donor: fc.oneof(
          fc.record({ email: fc.oneof(fc.constant(randomEmail()), value), firstName: value, lastName: value }, { requiredKeys: [] }),
          fc.record({ id: value }),
          value,
        ),
        advantageCents: value,
        note: value,
        sendReceipt: value,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await post(`/api/orgs/${org.id}/offline-gifts`, b, { token: owner.token });
        expect([201, 400, 404]).toContain(res.status);
        if (res.status === 400) expect(res.body.error).toMatch(/Validation failed|Invalid JSON body/);
      }),
      { numRuns: 60 },
    );
    await noViolations(org.id);
  });
});

describe("PATCH /api/donations/:id", () => {
  async function setup() {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const gift = await record(org, owner.token, cheque(campaign.id));
    return { owner, org, campaign, gift };
  }

  it("PATCH /api/donations/:id corrects the amount, date, campaign and reference; every total follows and the receipt number stays", async () => {
    const { owner, org, campaign, gift } = await setup();
    const other = await activeCampaign(org, owner, { title: "Gala" });
    const res = await patch(
      `/api/donations/${gift.id}`,
      { amount: 30_000, receivedAt: `${YEAR}-03-05T15:00:00Z`, campaignId: other.id, reference: "Cheque 1043", advantageCents: 5_000 },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      amount: 30_000,
      campaignId: other.id,
      reference: "Cheque 1043",
      succeededAt: `${YEAR}-03-05T15:00:00.000Z`,
      advantageCents: 5_000,
      deductibleAmountCents: 25_000,
      receiptNumber: gift.receiptNumber,
      status: "SUCCEEDED",
    });
    expect(await campaignOf(campaign.id, owner.token)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await campaignOf(other.id, owner.token)).toMatchObject({ raisedAmountCents: 30_000, donationCount: 1 });
    const donor = (await get(`/api/donors/${gift.donorId}`, { token: owner.token })).body;
    expect(donor).toMatchObject({ totalGivenCents: 30_000, donationCount: 1 });
    const db = await testDb();
    const audit = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, "donation.corrected")));
    expect(audit).toHaveLength(1);
    // A reference alone changes no total.
    const ref = await patch(`/api/donations/${gift.id}`, { reference: null, method: "BANK_TRANSFER" }, { token: owner.token });
    expect(ref.body).toMatchObject({ reference: null, method: "BANK_TRANSFER", amount: 30_000 });
    const timeline = await db.select().from(donationEvents).where(eq(donationEvents.donationId, gift.id));
    expect(timeline.map((e) => e.type)).toContain("gift.corrected");
    await noViolations(org.id);
  });

  it("PATCH /api/donations/:id answers 409 for an online gift and for a voided one", async () => {
    const { owner, campaign, gift } = await setup();
    const card = await paidDonation(campaign.id);
    const online = await patch(`/api/donations/${card.id}`, { amount: 100 }, { token: owner.token });
    expect(online.status).toBe(409);
    expect(online.body).toEqual({ error: "Only offline and imported gifts can be edited", status: 409 });
    await post(`/api/donations/${gift.id}/void`, { reason: "Bounced" }, { token: owner.token });
    expect((await patch(`/api/donations/${gift.id}`, { amount: 100 }, { token: owner.token })).status).toBe(409);
  });

  it("PATCH /api/donations/:id validates its body (400) and needs ADMIN of the gift's organization", async () => {
    const { owner, org, gift } = await setup();
    for (const body of [{}, { amount: -5 }, { advantageCents: 999_999 }, { campaignId: "cmp_nope" }, { status: "VOIDED" }]) {
      const res = await patch(`/api/donations/${gift.id}`, body, { token: owner.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("Validation failed");
    }
    expect((await patch(`/api/donations/${gift.id}`, { amount: 100 })).status).toBe(401);
    expect((await patch(`/api/donations/${gift.id}`, { amount: 100 }, { token: (await outsider()).token })).status).toBe(403);
    const member = await memberOf(org, owner, "MEMBER");
    expect((await patch(`/api/donations/${gift.id}`, { amount: 100 }, { token: member.token })).status).toBe(403);
    const missing = await patch(`/api/donations/don_unknown000000000000`, { amount: 100 }, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "Donation not found", status: 404 });
    // Moving it to another organization's campaign: that campaign is not found for this gift.
    const other = await activeOrgAndCampaign();
    const foreign = await patch(`/api/donations/${gift.id}`, { campaignId: other.campaign.id }, { token: owner.token });
    expect(foreign.status).toBe(400);
    expect(foreign.body.details.fieldErrors.campaignId).toBeDefined();
  });
});

describe("POST /api/donations/:id/void", () => {
  it("POST /api/donations/:id/void voids an offline gift: VOIDED, out of every total, receipt number kept and VOID, donation.voided emitted", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const gift = await record(org, owner.token, cheque(campaign.id));
    const kept = await record(org, owner.token, cheque(campaign.id, { amount: 1_000 }));
    const res = await post(`/api/donations/${gift.id}/void`, { reason: "Cheque <b>bounced</b>" }, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      status: "VOIDED",
      receiptNumber: gift.receiptNumber,
      receiptStatus: "VOID",
      voidReason: "Cheque bounced",
    });
    expect(res.body.voidedAt).toEqual(expect.any(String));
    expect(await campaignOf(campaign.id, owner.token)).toMatchObject({ raisedAmountCents: 1_000, donationCount: 1 });
    const db = await testDb();
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.orgId, org.id));
    expect(events.map((e) => e.type)).toContain("donation.voided");
    const again = await post(`/api/donations/${gift.id}/void`, { reason: "Twice" }, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("This gift is already voided");
    expect(kept.receiptNumber).not.toBe(gift.receiptNumber);
    await noViolations(org.id);
  });

  it("POST /api/donations/:id/void answers 409 for an online gift, 400 without a reason, 401/403/404 as usual", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const card = await paidDonation(campaign.id);
    const online = await post(`/api/donations/${card.id}/void`, { reason: "x" }, { token: owner.token });
    expect(online.status).toBe(409);
    const gift = await record(org, owner.token, cheque(campaign.id));
    expect((await post(`/api/donations/${gift.id}/void`, {}, { token: owner.token })).status).toBe(400);
    expect((await post(`/api/donations/${gift.id}/void`, { reason: "" }, { token: owner.token })).status).toBe(400);
    expect((await post(`/api/donations/${gift.id}/void`, { reason: "x" })).status).toBe(401);
    expect((await post(`/api/donations/${gift.id}/void`, { reason: "x" }, { token: (await outsider()).token })).status).toBe(403);
    const member: TestUser = await memberOf(org, owner, "MEMBER");
    expect((await post(`/api/donations/${gift.id}/void`, { reason: "x" }, { token: member.token })).status).toBe(403);
    expect((await post(`/api/donations/don_unknown000000000000/void`, { reason: "x" }, { token: owner.token })).status).toBe(404);
    expect((await get(`/api/donations/${gift.id}`, { token: owner.token })).body.status).toBe("SUCCEEDED");
  });
});

describe("receipt numbers of card gifts", () => {
  it("a card gift gets a receipt number when it succeeds, and keeps it (VOID) when refunded", async () => {
    const { owner, campaign } = await activeOrgAndCampaign();
    const card = await paidDonation(campaign.id);
    expect(card.receiptNumber).toMatch(RECEIPT);
    expect(card).toMatchObject({ source: "ONLINE", method: "CARD", reference: null, receiptStatus: "ISSUED" });
    const refund = await post(`/api/donations/${card.id}/refund`, undefined, { token: owner.token });
    expect(refund.status, refund.text).toBe(200);
    const after = (await get(`/api/donations/${card.id}`, { token: owner.token })).body;
    expect(after).toMatchObject({ status: "REFUNDED", receiptNumber: card.receiptNumber, receiptStatus: "VOID" });
  });

  it("a donation that never succeeded has no receipt number", async () => {
    const { campaign } = await activeOrgAndCampaign();
    const res = await call("POST", "/api/donations", { body: { campaignId: campaign.id, amount: 2500, email: randomEmail() } });
    expect(res.body).toMatchObject({ receiptNumber: null, receiptStatus: "NONE" });
  });
});

describe("POST /api/orgs/:idOrSlug/offline-gifts from a donor without email", () => {
  const gala = (campaignId: string, extra: Record<string, unknown> = {}) =>
    cheque(campaignId, { method: "CASH", reference: null, donor: { firstName: "Lin", lastName: "Gala" }, ...extra });
  const csvRows = (text: string) =>
    parse(text, { bom: true, columns: true, record_delimiter: "\r\n", skip_empty_lines: false }) as Record<string, string>[];

  it("POST /api/orgs/:idOrSlug/offline-gifts creates a new donor without email for each such gift, with no receipt email even when asked", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const first = await record(
      org,
      owner.token,
      gala(campaign.id, { sendReceipt: true, donor: { firstName: "Lin", lastName: "Gala", phone: "+1 555 0100" } }),
    );
    const second = await record(org, owner.token, gala(campaign.id, { amount: 4_000 }));
    expect(first).toMatchObject({
      status: "SUCCEEDED",
      source: "OFFLINE",
      method: "CASH",
      email: null,
      firstName: "Lin",
      lastName: "Gala",
    });
    expect(first.receiptNumber).toMatch(RECEIPT);
    expect(second.email).toBeNull();
    // Same name, no email: never matched, two records.
    expect(second.donorId).not.toBe(first.donorId);
    const one = (await get(`/api/donors/${first.donorId}`, { token: owner.token })).body;
    expect(one).toMatchObject({
      email: null,
      firstName: "Lin",
      lastName: "Gala",
      phone: "+1 555 0100",
      source: "OFFLINE",
      totalGivenCents: 25_000,
    });
    const two = (await get(`/api/donors/${second.donorId}`, { token: owner.token })).body;
    expect(two).toMatchObject({ email: null, totalGivenCents: 4_000, donationCount: 1 });
    // sendReceipt: true queued nothing for a donor without email; the gift still counts.
    const db = await testDb();
    const receipts = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.dedupeKey} in (${`email:receipt:${first.id}`}, ${`email:receipt:${second.id}`})`);
    expect(receipts).toHaveLength(0);
    expect(await campaignOf(campaign.id, owner.token)).toMatchObject({ raisedAmountCents: 29_000, donationCount: 2 });
    // Its receipt PDF still exists (to print and hand over).
    const pdf = await get(`/api/donations/${first.id}/receipt.pdf`, { token: owner.token });
    expect(pdf.status).toBe(200);
    await noViolations(org.id);
  });

  it("GET /api/orgs/:idOrSlug/donors lists and searches donors without email; the CSV exports leave their email empty", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const card = await paidDonation(campaign.id, { firstName: "Card", lastName: "Giver" });
    const gift = await record(org, owner.token, gala(campaign.id));
    for (const sort of ["name", "total", "lastGift", "createdAt"]) {
      for (const order of ["asc", "desc"]) {
        // Page by one, so every order places the donor without email.
        const seen: string[] = [];
        for (let page = 1; page <= 2; page++) {
          const res = await get(`/api/orgs/${org.id}/donors?sort=${sort}&order=${order}&limit=1&page=${page}`, { token: owner.token });
          expect(res.status, res.text).toBe(200);
          seen.push(...res.body.data.map((d: { id: string }) => d.id));
        }
        expect(seen.sort(), `${sort} ${order}`).toEqual([card.donorId, gift.donorId].sort());
      }
    }
    const found = await get(`/api/orgs/${org.id}/donors?q=gala`, { token: owner.token });
    expect(found.body.data).toEqual([expect.objectContaining({ id: gift.donorId, email: null })]);
    const donations = await get(`/api/orgs/${org.id}/donations/export`, { token: owner.token });
    expect(donations.status).toBe(200);
    const row = csvRows(donations.text).find((r) => r.id === gift.id);
    expect(row).toMatchObject({ email: "", firstName: "Lin", lastName: "Gala", source: "OFFLINE" });
    const donors = await get(`/api/orgs/${org.id}/donors/export`, { token: owner.token });
    expect(donors.status).toBe(200);
    expect(csvRows(donors.text).find((r) => r.id === gift.donorId)).toMatchObject({ email: "", firstName: "Lin" });
    // Year-end statements go to donors with an email only.
    const statements = await post(`/api/orgs/${org.id}/statements`, { year: YEAR }, { token: owner.token });
    expect(statements.status, statements.text).toBe(202);
    expect(statements.body.queued).toBe(0);
  });

  it("PATCH /api/donors/:id sets an email later (409 donor_email_taken still applies); merge and erasure work without one", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const card = await paidDonation(campaign.id, { firstName: "Lin", lastName: "Gala" });
    const a = await record(org, owner.token, gala(campaign.id));
    const b = await record(org, owner.token, gala(campaign.id, { amount: 1_000 }));
    const c = await record(org, owner.token, gala(campaign.id, { amount: 2_000 }));
    const taken = await patch(`/api/donors/${a.donorId}`, { email: card.email.toUpperCase() }, { token: owner.token });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body.code).toBe("donor_email_taken");
    const email = randomEmail("gala");
    const set = await patch(`/api/donors/${a.donorId}`, { email }, { token: owner.token });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ id: a.donorId, email });
    // Now the email matches: the next gift with it goes to this donor.
    const again = await record(
      org,
      owner.token,
      gala(campaign.id, { donor: { email: email.toUpperCase(), firstName: "Lin", lastName: "Gala" } }),
    );
    expect(again.donorId).toBe(a.donorId);
    // A donor without email merged into one with an email keeps the target's; the other way round takes the source's.
    const merged = await post(`/api/donors/${a.donorId}/merge`, { sourceDonorId: b.donorId }, { token: owner.token });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body).toMatchObject({ email, totalGivenCents: 25_000 * 2 + 1_000, donationCount: 3 });
    const intoBlank = await post(`/api/donors/${c.donorId}/merge`, { sourceDonorId: card.donorId }, { token: owner.token });
    expect(intoBlank.status, intoBlank.text).toBe(200);
    expect(intoBlank.body).toMatchObject({ email: card.email, totalGivenCents: 2_000 + card.amount });
    const d = await record(org, owner.token, gala(campaign.id, { amount: 3_000 }));
    const erased = await post(`/api/orgs/${org.id}/donors/${d.donorId}/erase`, undefined, { token: owner.token });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ firstName: null, lastName: null, totalGivenCents: 3_000 });
    await noViolations(org.id);
  });
});
