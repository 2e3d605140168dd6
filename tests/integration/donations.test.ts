/**
 * POST /api/donations and the sandbox payment flow, end to end through the real route handlers
 * (sandbox mode: no STRIPE_SECRET_KEY). Organizations are made ACTIVE through the API itself:
 * onboarding → sandbox account completion → the signed `account.updated` the sandbox delivers.
 */
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { donations, donors, outbox, recurringPlans } from "@/db/schema";
import { coverFeeCents } from "@/lib/money";
import { addMember, get, newCampaign, newOrg, newUser, patch, post, randomIp, type ApiResponse, type TestUser } from "../helpers/api";
import { DONATION_FIELDS } from "../helpers/contract";
import { testDb } from "../helpers/db";
import { startInsideWindow } from "../helpers/rate-window";

type Org = { id: string; slug: string } & Record<string, any>;
type Campaign = { id: string; slug: string } & Record<string, any>;

const CARD_OK = "4242 4242 4242 4242";
const CARD_DECLINED = "4000 0000 0000 0002";

// ---------------------------------------------------------------------------------------------
// Helpers.

/** A new organization made ACTIVE through the real onboarding API and the sandbox's completion. */
async function activeOrg(extra: Record<string, unknown> = {}): Promise<{ owner: TestUser; org: Org }> {
  const { owner, org } = await newOrg(undefined, { notificationEmail: "admin@goodfund-test.org", ...extra });
  expect(org.status).toBe("ONBOARDING");
  const onboarding = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
  expect(onboarding.status, onboarding.text).toBe(200);
  expect(onboarding.body.processorAccountId).toMatch(/^acct_sandbox_/);
  expect(onboarding.body.url).toEqual(expect.any(String));
  const done = await post(`/api/sandbox/accounts/${onboarding.body.processorAccountId}/complete`, undefined, { token: owner.token });
  expect(done.status, done.text).toBeLessThan(300);
  const after = await get(`/api/orgs/${org.id}`, { token: owner.token });
  expect(after.status).toBe(200);
  expect(after.body).toMatchObject({
    status: "ACTIVE",
    chargesEnabled: true,
    payoutsEnabled: true,
    processorAccountId: onboarding.body.processorAccountId,
  });
  return { owner, org: after.body };
}

const activeCampaign = (org: Org, owner: TestUser, body: Record<string, unknown> = {}) =>
  newCampaign(org, owner.token, { title: "Spring appeal", status: "ACTIVE", ...body });

const donate = (body: Record<string, unknown>, ip?: string) => post("/api/donations", body, { ip });

const gift = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  campaignId,
  amount: 2500,
  email: `donor-${Math.random().toString(36).slice(2, 10)}@example.org`,
  firstName: "Ada",
  lastName: "Lovelace",
  ...extra,
});

const confirm = (clientSecret: string, cardNumber: string) => post("/api/sandbox/payments/confirm", { clientSecret, cardNumber });

async function campaignOf(id: string, owner: TestUser) {
  const res = await get(`/api/campaigns/${id}`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body as Campaign;
}

async function donorRow(id: string) {
  const db = await testDb();
  const [row] = await db.select().from(donors).where(eq(donors.id, id));
  return row;
}

async function outboxFor(donationId: string) {
  const db = await testDb();
  return db
    .select()
    .from(outbox)
    .where(inArray(outbox.dedupeKey, [`email:receipt:${donationId}`, `email:admin:${donationId}`, `email:tribute:${donationId}`]));
}

function expectValidation(res: ApiResponse, field: string, message?: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toBe("Validation failed");
  expect(res.body.status).toBe(400);
  expect(res.body.details.formErrors).toEqual(expect.any(Array));
  const messages = res.body.details.fieldErrors[field];
  expect(messages, JSON.stringify(res.body.details)).toEqual(expect.arrayContaining([expect.any(String)]));
  if (message !== undefined) expect(messages).toContain(message);
}

function expectError(res: ApiResponse, status: number, error?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body.status).toBe(status);
  if (error !== undefined) expect(res.body.error).toBe(error);
  else expect(res.body.error).toEqual(expect.any(String));
}

/** A donation that succeeded through the sandbox card form. */
async function succeededDonation(campaignId: string, extra: Record<string, unknown> = {}) {
  const created = await donate(gift(campaignId, extra));
  expect(created.status, created.text).toBe(201);
  const paid = await confirm(created.body.clientSecret, CARD_OK);
  expect(paid.status, paid.text).toBe(200);
  expect(paid.body.status).toBe("SUCCEEDED");
  return paid.body;
}

// ---------------------------------------------------------------------------------------------

let owner: TestUser;
let org: Org;
let campaign: Campaign;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  campaign = await activeCampaign(org, owner);
});

describe("POST /api/donations: success", () => {
  it("answers 201 with a PENDING one-time donation carrying every documented field", async () => {
    const res = await donate(gift(campaign.id));
    expect(res.status, res.text).toBe(201);
    const d = res.body;
    for (const field of DONATION_FIELDS) expect(d, field).toHaveProperty(field);
    expect(d).toMatchObject({
      orgId: org.id,
      campaignId: campaign.id,
      amount: 2500,
      currency: "usd",
      status: "PENDING",
      firstName: "Ada",
      lastName: "Lovelace",
      anonymous: false,
      message: null,
      dedication: null,
      recurringInterval: null,
      recurringPlanId: null,
      subscriptionId: null,
      isRenewal: false,
      tickets: null,
      coverFees: false,
      feeCents: 0,
      matchedAmountCents: 0,
      failureReason: null,
      disputeReason: null,
      succeededAt: null,
      chargeAmountCents: 2500,
    });
    expect(d.id).toEqual(expect.any(String));
    expect(d.donorId).toEqual(expect.any(String));
    expect(d.paymentIntentId).toMatch(/^pi_sandbox_/);
    expect(d.clientSecret).toEqual(expect.any(String));
    expect(d.clientSecret.startsWith(`${d.paymentIntentId}_secret_`)).toBe(true);
    expect(new Date(d.createdAt).toISOString()).toBe(d.createdAt);
    expect(new Date(d.updatedAt).toISOString()).toBe(d.updatedAt);
  });

  it("a recurring gift gets a sandbox subscription and a recurring plan", async () => {
    const res = await donate(gift(campaign.id, { recurringInterval: "MONTH" }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe("PENDING");
    expect(res.body.recurringInterval).toBe("MONTH");
    expect(res.body.subscriptionId).toMatch(/^sub_sandbox_/);
    expect(res.body.recurringPlanId).toEqual(expect.any(String));
    expect(res.body.clientSecret).toEqual(expect.any(String));
    const db = await testDb();
    const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, res.body.recurringPlanId));
    expect(plan).toMatchObject({
      orgId: org.id,
      campaignId: campaign.id,
      donorId: res.body.donorId,
      subscriptionId: res.body.subscriptionId,
      amount: 2500,
      interval: "MONTH",
    });
  });

  it("one donor per organization and case-insensitive email; a later gift's names apply once it is paid", async () => {
    const local = `Upsert-${Math.random().toString(36).slice(2, 8)}`;
    const first = await donate(gift(campaign.id, { email: `${local}@X.org`, firstName: "Grace", lastName: "Hopper" }));
    const second = await donate(gift(campaign.id, { email: `${local.toLowerCase()}@x.org`, firstName: "Gracie", lastName: "Murray" }));
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.donorId).toBe(first.body.donorId);
    expect(await donorRow(first.body.donorId)).toMatchObject({ orgId: org.id, firstName: "Grace", lastName: "Hopper" });
    expect((await confirm(second.body.clientSecret, CARD_OK)).body.status).toBe("SUCCEEDED");
    const donor = await donorRow(first.body.donorId);
    expect(donor).toMatchObject({ orgId: org.id, firstName: "Gracie", lastName: "Murray" });

    const other = await activeOrg();
    const otherCampaign = await activeCampaign(other.org, other.owner);
    const elsewhere = await donate(gift(otherCampaign.id, { email: `${local}@X.org` }));
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.donorId).not.toBe(first.body.donorId);
    expect((await donorRow(elsewhere.body.donorId)).orgId).toBe(other.org.id);
  });

  it("strips HTML from the message and keeps a dedication", async () => {
    const res = await donate(
      gift(campaign.id, {
        message: "<script>alert(1)</script>Thank <b>you</b>!",
        anonymous: true,
        dedication: { type: "IN_MEMORY", honoreeName: "Grandma <i>Jo</i>", notifyEmail: "family@example.org", message: "<p>With love</p>" },
      }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe("Thank you!");
    expect(res.body.anonymous).toBe(true);
    expect(res.body.dedication).toEqual({
      type: "IN_MEMORY",
      honoreeName: "Grandma Jo",
      notifyEmail: "family@example.org",
      message: "With love",
    });
  });

  it("accepts a message of exactly 1 000 characters after HTML is stripped", async () => {
    const res = await donate(gift(campaign.id, { message: `<b>${"x".repeat(1000)}</b>` }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.message).toBe("x".repeat(1000));
  });

  it("accepts the organization's currency in any case", async () => {
    const res = await donate(gift(campaign.id, { currency: "USD" }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.currency).toBe("usd");
  });
});

describe("POST /api/donations: validation", () => {
  it("amount below 100 → fieldErrors.amount with the documented message", async () => {
    for (const amount of [99, 0, -5]) {
      const res = await donate(gift(campaign.id, { amount }));
      expectValidation(res, "amount");
      expect(res.body.details.fieldErrors.amount).toEqual(["Number must be greater than or equal to 100"]);
    }
  });

  it("a non-integer or non-number amount is refused on amount", async () => {
    expectValidation(await donate(gift(campaign.id, { amount: 2500.5 })), "amount");
    expectValidation(await donate(gift(campaign.id, { amount: "2500" })), "amount");
    expectValidation(await donate({ campaignId: campaign.id, email: "a@example.org" }), "amount");
  });

  it("a missing or malformed email is refused on email", async () => {
    const { email: _omit, ...noEmail } = gift(campaign.id);
    expectValidation(await donate(noEmail), "email");
    expectValidation(await donate(gift(campaign.id, { email: "not-an-email" })), "email");
    expectValidation(await donate(gift(campaign.id, { email: "" })), "email");
  });

  it("a missing campaignId is refused on campaignId", async () => {
    expectValidation(await donate({ amount: 2500, email: "a@example.org" }), "campaignId");
  });

  it("an amount below the campaign's minAmountCents is refused on amount", async () => {
    const c = await activeCampaign(org, owner, { minAmountCents: 1000 });
    expectValidation(await donate(gift(c.id, { amount: 999 })), "amount");
    expect((await donate(gift(c.id, { amount: 1000 }))).status).toBe(201);
  });

  it("without custom amounts only a suggested amount is accepted", async () => {
    const c = await activeCampaign(org, owner, { allowCustomAmount: false, suggestedAmounts: [1000, 2000] });
    expectValidation(await donate(gift(c.id, { amount: 1500 })), "amount");
    const ok = await donate(gift(c.id, { amount: 2000 }));
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.amount).toBe(2000);
  });

  it("a recurring gift is refused when the campaign does not allow recurring", async () => {
    const c = await activeCampaign(org, owner, { allowRecurring: false });
    expectValidation(await donate(gift(c.id, { recurringInterval: "MONTH" })), "recurringInterval");
    expect((await donate(gift(c.id))).status).toBe(201);
  });

  it("an unknown recurringInterval is refused", async () => {
    expectValidation(await donate(gift(campaign.id, { recurringInterval: "DAY" })), "recurringInterval");
  });

  it("a MEMBERSHIP campaign requires a recurringInterval", async () => {
    const c = await activeCampaign(org, owner, { type: "MEMBERSHIP" });
    expectValidation(await donate(gift(c.id)), "recurringInterval");
    const ok = await donate(gift(c.id, { recurringInterval: "YEAR" }));
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.subscriptionId).toMatch(/^sub_sandbox_/);
  });

  it("EVENT campaigns need tickets, and amount = tickets × ticket price", async () => {
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1500, ticketCapacity: 100 });
    expectValidation(await donate(gift(c.id, { amount: 1500 })), "tickets");
    expectValidation(await donate(gift(c.id, { amount: 2000, tickets: 1 })), "amount");
    expectValidation(await donate(gift(c.id, { amount: 1500, tickets: 2 })), "amount");
    const ok = await donate(gift(c.id, { amount: 3000, tickets: 2 }));
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.tickets).toBe(2);
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(2);
  });

  it("tickets on a non-EVENT campaign are refused on tickets", async () => {
    expectValidation(await donate(gift(campaign.id, { tickets: 1 })), "tickets");
  });

  it("a currency other than the organization's is refused on currency", async () => {
    expectValidation(await donate(gift(campaign.id, { currency: "eur" })), "currency");
    expectValidation(await donate(gift(campaign.id, { currency: "dollars" })), "currency");
  });

  it("a message over 1 000 characters after HTML stripping is refused on message", async () => {
    expectValidation(await donate(gift(campaign.id, { message: `<b>${"x".repeat(1001)}</b>` })), "message");
  });

  it("a dedication with a bad notifyEmail is refused under the dotted name", async () => {
    const res = await donate(gift(campaign.id, { dedication: { type: "IN_HONOR", honoreeName: "Sam", notifyEmail: "nope" } }));
    expectValidation(res, "dedication.notifyEmail");
    expect(res.body.details.fieldErrors).not.toHaveProperty("dedication");
    expectValidation(await donate(gift(campaign.id, { dedication: { type: "BIRTHDAY", honoreeName: "Sam" } })), "dedication.type");
  });

  it("a non-JSON body answers 415 and malformed JSON 400 Invalid JSON body", async () => {
    const notJson = await post("/api/donations", undefined, { rawBody: "amount=100", headers: { "content-type": "text/plain" } });
    expectError(notJson, 415);
    const broken = await post("/api/donations", undefined, { rawBody: "{", headers: { "content-type": "application/json" } });
    expectError(broken, 400, "Invalid JSON body");
  });

  it("no donation row is written for a refused body", async () => {
    const email = `refused-${Math.random().toString(36).slice(2, 8)}@example.org`;
    expectValidation(await donate(gift(campaign.id, { email, amount: 50 })), "amount");
    const db = await testDb();
    expect(await db.select().from(donations).where(eq(donations.email, email))).toHaveLength(0);
  });
});

describe("POST /api/donations: campaign state", () => {
  it("404 Campaign not found for an unknown campaign and for a DRAFT", async () => {
    expectError(await donate(gift("cmp_does_not_exist")), 404, "Campaign not found");
    const draft = await newCampaign(org, owner.token, { title: "Draft" });
    expect(draft.status).toBe("DRAFT");
    expectError(await donate(gift(draft.id)), 404, "Campaign not found");
  });

  it("409 for a PAUSED or ENDED campaign", async () => {
    const paused = await activeCampaign(org, owner);
    expect((await patch(`/api/campaigns/${paused.id}`, { status: "PAUSED" }, { token: owner.token })).status).toBe(200);
    expectError(await donate(gift(paused.id)), 409, "Campaign is not accepting donations");

    const ended = await activeCampaign(org, owner);
    expect((await patch(`/api/campaigns/${ended.id}`, { status: "ENDED" }, { token: owner.token })).status).toBe(200);
    expectError(await donate(gift(ended.id)), 409, "Campaign is not accepting donations");
  });

  it("409 for an ACTIVE campaign past its endDate (before the sweeper ends it)", async () => {
    const c = await activeCampaign(org, owner, { startDate: "2020-01-01T00:00:00Z", endDate: "2020-02-01T00:00:00Z" });
    expect(c.status).toBe("ACTIVE");
    expectError(await donate(gift(c.id)), 409, "Campaign is not accepting donations");
  });

  it("409 for an ACTIVE campaign whose organization is still ONBOARDING", async () => {
    const { owner: o, org: onboarding } = await newOrg();
    const c = await newCampaign(onboarding, o.token, { status: "ACTIVE" });
    expect(c.status).toBe("ACTIVE");
    expectError(await donate(gift(c.id)), 409, "Campaign is not accepting donations");
    // Still refused after onboarding started but before the account is complete.
    expect((await post(`/api/orgs/${onboarding.id}/processor/onboarding`, undefined, { token: o.token })).status).toBe(200);
    expectError(await donate(gift(c.id)), 409, "Campaign is not accepting donations");
  });
});

describe("event tickets", () => {
  it("are never oversold under concurrent purchases", async () => {
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 10 });
    const results = await Promise.all(Array.from({ length: 20 }, () => donate(gift(c.id, { amount: 1000, tickets: 1 }), randomIp())));
    const created = results.filter((r) => r.status === 201);
    const soldOut = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(10);
    expect(soldOut).toHaveLength(10);
    for (const r of soldOut) expect(r.body).toEqual({ error: "Sold out", status: 409 });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(10);

    // A declined card keeps its ticket: the same payment may still succeed with another card.
    const declined = await confirm(created[0].body.clientSecret, CARD_DECLINED);
    expect(declined.status, declined.text).toBe(200);
    expect(declined.body).toMatchObject({ status: "PENDING", failureReason: "Your card was declined." });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(10);
    expectError(await donate(gift(c.id, { amount: 1000, tickets: 1 })), 409, "Sold out");
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(10);
  });

  it("a purchase larger than the tickets left is sold out", async () => {
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 500, ticketCapacity: 3 });
    expect((await donate(gift(c.id, { amount: 1000, tickets: 2 }))).status).toBe(201);
    expectError(await donate(gift(c.id, { amount: 1000, tickets: 2 })), 409, "Sold out");
    expect((await donate(gift(c.id, { amount: 500, tickets: 1 }))).status).toBe(201);
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(3);
  });

  it("a declined ticket payment keeps its ticket and, retried with another card, succeeds", async () => {
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 1 });
    const d = await donate(gift(c.id, { amount: 1000, tickets: 1 }));
    expect((await confirm(d.body.clientSecret, CARD_DECLINED)).body).toMatchObject({
      status: "PENDING",
      failureReason: "Your card was declined.",
    });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(1);
    const retry = await confirm(d.body.clientSecret, CARD_OK);
    expect(retry.body).toMatchObject({ status: "SUCCEEDED", failureReason: null });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(1);
    expectError(await donate(gift(c.id, { amount: 1000, tickets: 1 })), 409, "Sold out");
  });

  it("a retried declined ticket payment cannot oversell the event: its seat is not sold to anyone else meanwhile", async () => {
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 1 });
    const first = await donate(gift(c.id, { amount: 1000, tickets: 1 }));
    expect(first.status).toBe(201);
    expect((await confirm(first.body.clientSecret, CARD_DECLINED)).body.status).toBe("PENDING");
    expectError(await donate(gift(c.id, { amount: 1000, tickets: 1 })), 409, "Sold out");
    // The first donor retries with a good card: the only ticket is still theirs.
    expect((await confirm(first.body.clientSecret, CARD_OK)).body.status).toBe("SUCCEEDED");
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(1);
    const db = await testDb();
    const rows = await db.select().from(donations).where(eq(donations.campaignId, c.id));
    expect(rows.map((d) => d.status)).toEqual(["SUCCEEDED"]);
  });
});

describe("cover fees", () => {
  it("adds coverFeeCents(amount) to the charge; the campaign counts the gift only", async () => {
    const c = await activeCampaign(org, owner);
    const res = await donate(gift(c.id, { amount: 5000, coverFees: true }));
    expect(res.status, res.text).toBe(201);
    const fee = coverFeeCents(5000);
    expect(fee).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ amount: 5000, coverFees: true, feeCents: fee, chargeAmountCents: 5000 + fee });
    const paid = await confirm(res.body.clientSecret, CARD_OK);
    expect(paid.body.status).toBe("SUCCEEDED");
    const after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(5000);
    expect(after.donationCount).toBe(1);
    expect((await donorRow(res.body.donorId)).totalGivenCents).toBe(5000);
  });
});

describe("sandbox checkout", () => {
  it("a good card succeeds: totals move, receipt, admin and tribute emails are queued", async () => {
    const c = await activeCampaign(org, owner, { title: "Library fund" });
    const email = `checkout-${Math.random().toString(36).slice(2, 8)}@example.org`;
    const created = await donate(
      gift(c.id, {
        amount: 4200,
        email,
        firstName: "Katherine",
        lastName: "Johnson",
        message: "Keep reading",
        dedication: { type: "IN_HONOR", honoreeName: "Mrs Smith", notifyEmail: "smith@example.org", message: "For you" },
      }),
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    expect(await outboxFor(id)).toHaveLength(0);

    const paid = await confirm(created.body.clientSecret, CARD_OK);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ id, status: "SUCCEEDED", failureReason: null });
    expect(paid.body.succeededAt).toEqual(expect.any(String));

    const after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(4200);
    expect(after.donationCount).toBe(1);
    const donor = await donorRow(created.body.donorId);
    expect(donor).toMatchObject({ totalGivenCents: 4200, donationCount: 1 });
    expect(donor.firstDonationAt).toBeInstanceOf(Date);
    expect(donor.lastDonationAt).toBeInstanceOf(Date);

    const rows = await outboxFor(id);
    const byKey = Object.fromEntries(rows.map((r) => [r.dedupeKey, r]));
    expect(Object.keys(byKey).sort()).toEqual([`email:admin:${id}`, `email:receipt:${id}`, `email:tribute:${id}`]);
    for (const r of rows) {
      expect(r.kind).toBe("email");
      expect(r.orgId).toBe(org.id);
    }
    const receipt = byKey[`email:receipt:${id}`].payload as any;
    expect(receipt.template).toBe("receipt");
    expect(receipt.to).toBe(email);
    expect(receipt.props).toMatchObject({
      donorName: "Katherine Johnson",
      amountCents: 4200,
      campaignTitle: "Library fund",
      donationId: id,
    });
    const admin = byKey[`email:admin:${id}`].payload as any;
    expect(admin.template).toBe("admin-notification");
    expect(admin.to).toBe("admin@goodfund-test.org");
    expect(admin.props).toMatchObject({
      donorName: "Katherine Johnson",
      amountCents: 4200,
      campaignTitle: "Library fund",
      message: "Keep reading",
    });
    const tribute = byKey[`email:tribute:${id}`].payload as any;
    expect(tribute.template).toBe("tribute");
    expect(tribute.to).toBe("smith@example.org");
    expect(tribute.props).toMatchObject({ donorName: "Katherine Johnson", honoreeName: "Mrs Smith", campaignTitle: "Library fund" });

    // Confirming it again is a conflict and changes nothing.
    expectError(await confirm(created.body.clientSecret, CARD_OK), 409);
    const again = await campaignOf(c.id, owner);
    expect(again.raisedAmountCents).toBe(4200);
    expect(again.donationCount).toBe(1);
    expect(await outboxFor(id)).toHaveLength(3);
  });

  it("no tribute email without a dedication notifyEmail", async () => {
    const c = await activeCampaign(org, owner);
    const d = await succeededDonation(c.id, { dedication: { type: "IN_MEMORY", honoreeName: "Rex" } });
    const keys = (await outboxFor(d.id)).map((r) => r.dedupeKey).sort();
    expect(keys).toEqual([`email:admin:${d.id}`, `email:receipt:${d.id}`]);
  });

  it("a declined card → FAILED with the decline reason, totals unchanged, no receipt", async () => {
    const c = await activeCampaign(org, owner);
    const created = await donate(gift(c.id));
    const res = await confirm(created.body.clientSecret, CARD_DECLINED);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: "FAILED", failureReason: "Your card was declined.", succeededAt: null });
    const after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(0);
    expect(after.donationCount).toBe(0);
    expect((await donorRow(created.body.donorId)).totalGivenCents).toBe(0);
    expect(await outboxFor(created.body.id)).toHaveLength(0);

    // The donor may try again with another card.
    const retry = await confirm(created.body.clientSecret, CARD_OK);
    expect(retry.body).toMatchObject({ status: "SUCCEEDED", failureReason: null });
    expect((await campaignOf(c.id, owner)).raisedAmountCents).toBe(2500);
  });

  it("an unknown card number → 400 on cardNumber; an unknown secret → 404", async () => {
    const created = await donate(gift(campaign.id));
    expectValidation(await confirm(created.body.clientSecret, "4111 1111 1111 1111"), "cardNumber");
    expectValidation(await post("/api/sandbox/payments/confirm", { clientSecret: created.body.clientSecret }), "cardNumber");
    expectError(await confirm("pi_sandbox_nothing_secret_x", CARD_OK), 404);
    expectError(await confirm("whatever", CARD_OK), 404);
  });

  it("a recurring gift: confirm → SUCCEEDED and plan ACTIVE; renew → a renewal donation", async () => {
    const c = await activeCampaign(org, owner);
    const created = await donate(gift(c.id, { amount: 1500, recurringInterval: "MONTH" }));
    expect(created.status, created.text).toBe(201);
    const subscriptionId = created.body.subscriptionId;
    const paid = await confirm(created.body.clientSecret, CARD_OK);
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: "SUCCEEDED", subscriptionId });
    const db = await testDb();
    const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, created.body.recurringPlanId));
    expect(plan.status).toBe("ACTIVE");
    let after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(1500);
    expect(after.donationCount).toBe(1);
    expect((await outboxFor(created.body.id)).map((r) => r.dedupeKey)).toContain(`email:receipt:${created.body.id}`);

    const admin = await newUser("Admin");
    await addMember(org.id, owner.token, admin, "ADMIN");
    const renewed = await post(`/api/sandbox/subscriptions/${subscriptionId}/renew`, undefined, { token: admin.token });
    expect(renewed.status, renewed.text).toBeLessThan(300);
    const renewals = await db
      .select()
      .from(donations)
      .where(and(eq(donations.subscriptionId, subscriptionId), eq(donations.isRenewal, true)));
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: "SUCCEEDED", amount: 1500, recurringPlanId: created.body.recurringPlanId });
    after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(3000);
    expect(after.donationCount).toBe(2);
    expect(await donorRow(created.body.donorId)).toMatchObject({ totalGivenCents: 3000, donationCount: 2 });

    // MEMBER may not renew; unknown subscription 404.
    const member = await newUser("Member");
    await addMember(org.id, owner.token, member, "MEMBER");
    expectError(await post(`/api/sandbox/subscriptions/${subscriptionId}/renew`, undefined, { token: member.token }), 403);
    expectError(await post(`/api/sandbox/subscriptions/sub_sandbox_unknown/renew`, undefined, { token: admin.token }), 404);
    expectError(await post(`/api/sandbox/subscriptions/${subscriptionId}/renew`), 401);
  });

  it("a recurring gift whose first payment has not succeeded cannot be renewed", async () => {
    const created = await donate(gift(campaign.id, { recurringInterval: "YEAR" }));
    expectError(await post(`/api/sandbox/subscriptions/${created.body.subscriptionId}/renew`, undefined, { token: owner.token }), 409);
  });
});

describe("POST /api/donations/:id/refund", () => {
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    admin = await newUser("Refund admin");
    member = await newUser("Refund member");
    await addMember(org.id, owner.token, admin, "ADMIN");
    await addMember(org.id, owner.token, member, "MEMBER");
  });

  it("refunds a SUCCEEDED donation: REFUNDED and totals back down", async () => {
    const c = await activeCampaign(org, owner);
    const keep = await succeededDonation(c.id, { amount: 1000 });
    const d = await succeededDonation(c.id, { amount: 3000, coverFees: true });
    expect((await campaignOf(c.id, owner)).raisedAmountCents).toBe(4000);

    const res = await post(`/api/donations/${d.id}/refund`, undefined, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: d.id, status: "REFUNDED" });
    const after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(1000);
    expect(after.donationCount).toBe(1);
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 0, donationCount: 0 });
    expect(await donorRow(keep.donorId)).toMatchObject({ totalGivenCents: 1000, donationCount: 1 });

    // A second refund is a conflict.
    expectError(await post(`/api/donations/${d.id}/refund`, undefined, { token: admin.token }), 409);
  });

  it("refunding a ticket releases it", async () => {
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 5 });
    const d = await succeededDonation(c.id, { amount: 2000, tickets: 2 });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(2);
    expect((await post(`/api/donations/${d.id}/refund`, undefined, { token: owner.token })).status).toBe(200);
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(0);
  });

  it("a PENDING donation → 409; MEMBER → 403; no token → 401; unknown → 404", async () => {
    const pending = await donate(gift(campaign.id));
    expectError(await post(`/api/donations/${pending.body.id}/refund`, undefined, { token: admin.token }), 409);
    const d = await succeededDonation(campaign.id);
    expectError(await post(`/api/donations/${d.id}/refund`, undefined, { token: member.token }), 403, "Forbidden");
    const outsider = await newUser("Outsider");
    expectError(await post(`/api/donations/${d.id}/refund`, undefined, { token: outsider.token }), 403, "Forbidden");
    expectError(await post(`/api/donations/${d.id}/refund`), 401, "Unauthorized");
    expectError(await post(`/api/donations/don_unknown/refund`, undefined, { token: admin.token }), 404, "Donation not found");
    // Nothing was refunded by the refused calls.
    const db = await testDb();
    const [row] = await db.select().from(donations).where(eq(donations.id, d.id));
    expect(row.status).toBe("SUCCEEDED");
  });
});

describe("processor onboarding", () => {
  it("POST …/processor/onboarding twice keeps the same account", async () => {
    const { owner: o, org: fresh } = await newOrg();
    const first = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    const second = await post(`/api/orgs/${fresh.slug}/processor/onboarding`, undefined, { token: o.token });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body.processorAccountId).toMatch(/^acct_sandbox_/);
    expect(second.body.processorAccountId).toBe(first.body.processorAccountId);
    expect(second.body.url).toEqual(expect.any(String));
    const org = await get(`/api/orgs/${fresh.id}`, { token: o.token });
    expect(org.body).toMatchObject({ status: "ONBOARDING", processorAccountId: first.body.processorAccountId, chargesEnabled: false });
  });

  it("only the OWNER may start onboarding or complete the sandbox account", async () => {
    const { owner: o, org: fresh } = await newOrg();
    const admin = await newUser("Admin");
    const outsider = await newUser("Outsider");
    await addMember(fresh.id, o.token, admin, "ADMIN");
    expectError(await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: admin.token }), 403, "Forbidden");
    expectError(await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: outsider.token }), 403, "Forbidden");
    expectError(await post(`/api/orgs/${fresh.id}/processor/onboarding`), 401, "Unauthorized");
    expectError(await post(`/api/orgs/org_unknown/processor/onboarding`, undefined, { token: o.token }), 404, "Organization not found");

    const started = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    const acct = started.body.processorAccountId;
    expectError(await post(`/api/sandbox/accounts/${acct}/complete`, undefined, { token: admin.token }), 403, "Forbidden");
    expectError(await post(`/api/sandbox/accounts/${acct}/complete`, undefined, { token: outsider.token }), 403, "Forbidden");
    expectError(await post(`/api/sandbox/accounts/${acct}/complete`), 401, "Unauthorized");
    expectError(await post(`/api/sandbox/accounts/acct_sandbox_unknown/complete`, undefined, { token: o.token }), 404);
    expect((await get(`/api/orgs/${fresh.id}`, { token: o.token })).body.status).toBe("ONBOARDING");
  });
});

describe("rate limit", () => {
  it("the 101st POST /api/donations from one IP in a minute → 429; another IP still passes", async () => {
    const ip = `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
    await startInsideWindow(20_000);
    for (let i = 0; i < 100; i++) {
      const res = await post("/api/donations", { amount: 1 }, { ip });
      expect(res.status, `request ${i + 1}`).toBe(400);
      expect(res.headers.get("x-ratelimit-limit")).toBe("100");
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(99 - i));
    }
    const limited = await donate(gift(campaign.id), ip);
    expectError(limited, 429, "Too many requests");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("x-ratelimit-limit")).toBe("100");
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    const reset = Number(limited.headers.get("x-ratelimit-reset"));
    const now = Math.floor(Date.now() / 1000);
    expect(reset).toBeGreaterThanOrEqual(now);
    expect(reset).toBeLessThanOrEqual(now + 61);
    expect(limited.headers.get("x-request-id")).toBeTruthy();

    const other = await donate(gift(campaign.id), `198.51.100.${1 + Math.floor(Math.random() * 250)}`);
    expect(other.status, other.text).toBe(201);
  });
});
