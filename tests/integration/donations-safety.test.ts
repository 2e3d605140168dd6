/**
 * POST /api/donations when real money is at stake, through the real route handlers and the
 * sandbox: tickets per order, the campaign's dates, donor records that only a payment changes,
 * the card-testing defence (failed payments per client IP), the optional Turnstile check against
 * a stand-in verify server, the sandbox's whole-secret check, and expiring ticket holds.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { donationEvents, donations } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { deliver, paymentCanceledEvent, type CreatedDonation } from "../fixtures/processor";
import { get, patch, post, randomIp, type ApiResponse, type TestUser } from "../helpers/api";
import { donatePage } from "../helpers/donate-page";
import { testDb } from "../helpers/db";
import {
  activeCampaign,
  activeOrgAndCampaign,
  CARD_DECLINED,
  CARD_OK,
  giftBody as gift,
  randomEmail,
  type Campaign,
  type Org,
} from "../helpers/records";

// The donate page reads the request's headers (a shed, light render); rendered here outside a
// request, it gets an ordinary request's: none of them.
vi.mock("next/headers", async (original) => ({ ...(await original<typeof import("next/headers")>()), headers: async () => new Headers() }));

let owner: TestUser;
let org: Org;
let campaign: Campaign;
let event: Campaign;

beforeAll(async () => {
  ({ owner, org, campaign } = await activeOrgAndCampaign());
  event = await activeCampaign(org, owner, {
    title: "Gala",
    type: "EVENT",
    ticketPriceCents: 1000,
    ticketCapacity: 50,
    maxTicketsPerOrder: 4,
  });
});

const donate = (body: Record<string, unknown>, ip = randomIp()) => post("/api/donations", body, { ip });
const confirm = (clientSecret: string, cardNumber = CARD_OK) => post("/api/sandbox/payments/confirm", { clientSecret, cardNumber });

function expectValidation(res: ApiResponse, field: string, message?: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ error: "Validation failed", status: 400 });
  const messages = res.body.details.fieldErrors[field];
  expect(messages, JSON.stringify(res.body.details)).toEqual(expect.arrayContaining([expect.any(String)]));
  if (message !== undefined) expect(messages).toContain(message);
}

function expectError(res: ApiResponse, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toEqual({ error, status });
}

async function started(body: Record<string, unknown>, ip?: string) {
  const res = await donate(body, ip);
  expect(res.status, res.text).toBe(201);
  return res.body as CreatedDonation & { clientSecret: string };
}

async function ticketsSold(campaignId: string) {
  const res = await get(`/api/campaigns/${campaignId}`, { token: owner.token });
  return res.body.ticketsSold as number;
}

/** Released seats are for sale again: a new gift of `tickets` seats at $10 each is paid, and exactly those are sold. */
async function expectSeatsSellAgain(gala: Campaign, tickets: number) {
  const next = await started(gift(gala.id, { amount: tickets * 1000, tickets }));
  expect((await confirm(next.clientSecret)).body.status).toBe("SUCCEEDED");
  expect(await ticketsSold(gala.id)).toBe(tickets);
}

/** Makes the donations' ticket holds older than TICKET_HOLD_MINUTES (30). */
async function ageHolds(ids: string[], minutes = 31) {
  const db = await testDb();
  await db
    .update(donations)
    .set({ createdAt: sql`now() - ${`${minutes} minutes`}::interval` })
    .where(inArray(donations.id, ids));
}

describe("maxTicketsPerOrder", () => {
  it("POST /api/orgs/:idOrSlug/campaigns defaults maxTicketsPerOrder to 10; PATCH changes it; 0 or 101 is a 400", async () => {
    const created = await post(
      `/api/orgs/${org.id}/campaigns`,
      { title: "Ball", type: "EVENT", ticketPriceCents: 500, ticketCapacity: 20 },
      { token: owner.token },
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body.maxTicketsPerOrder).toBe(10);
    const changed = await patch(`/api/campaigns/${created.body.id}`, { maxTicketsPerOrder: 6 }, { token: owner.token });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.maxTicketsPerOrder).toBe(6);
    expect((await get(`/api/campaigns/${created.body.id}`, { token: owner.token })).body.maxTicketsPerOrder).toBe(6);
    expectValidation(
      await patch(`/api/campaigns/${created.body.id}`, { maxTicketsPerOrder: 0 }, { token: owner.token }),
      "maxTicketsPerOrder",
    );
    expectValidation(
      await patch(`/api/campaigns/${created.body.id}`, { maxTicketsPerOrder: 101 }, { token: owner.token }),
      "maxTicketsPerOrder",
    );
    expectValidation(
      await patch(`/api/campaigns/${created.body.id}`, { maxTicketsPerOrder: null }, { token: owner.token }),
      "maxTicketsPerOrder",
    );
  });

  it("POST /api/donations with more tickets than maxTicketsPerOrder is a 400 on tickets and holds nothing", async () => {
    const before = await ticketsSold(event.id);
    expectValidation(await donate(gift(event.id, { amount: 5000, tickets: 5 })), "tickets", "At most 4 tickets per order");
    expect(await ticketsSold(event.id)).toBe(before);
    const four = await started(gift(event.id, { amount: 4000, tickets: 4 }));
    expect(four.tickets).toBe(4);
    expect(await ticketsSold(event.id)).toBe(before + 4);
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug shows maxTicketsPerOrder to the donate page", async () => {
    const res = await get(`/api/public/orgs/${org.slug}/campaigns/${event.slug}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.campaign.maxTicketsPerOrder).toBe(4);
  });
});

describe("campaign dates", () => {
  it("POST /api/donations before a campaign's startDate or after its endDate answers 409 Campaign is not accepting donations", async () => {
    const soon = await activeCampaign(org, owner, { startDate: new Date(Date.now() + 86_400_000).toISOString() });
    expectError(await donate(gift(soon.id)), 409, "Campaign is not accepting donations");
    const over = await activeCampaign(org, owner, { startDate: "2020-01-01T00:00:00Z", endDate: "2020-02-01T00:00:00Z" });
    expectError(await donate(gift(over.id)), 409, "Campaign is not accepting donations");
    const running = await activeCampaign(org, owner, { startDate: new Date(Date.now() - 60_000).toISOString() });
    await started(gift(running.id));
  });

  it("an EVENT's startDate is the event: its tickets sell before it, until its endDate", async () => {
    const start = Date.now() + 7 * 86_400_000;
    const gala = await activeCampaign(org, owner, {
      type: "EVENT",
      ticketPriceCents: 1000,
      ticketCapacity: 10,
      startDate: new Date(start).toISOString(),
      endDate: new Date(start + 3_600_000).toISOString(),
    });
    await started(gift(gala.id, { amount: 1000, tickets: 1 }));
  });

  it("GET /o/:orgSlug/donate/:slug tells the visitor when giving opens", async () => {
    const opens = new Date(Date.now() + 2 * 86_400_000);
    const soon = await activeCampaign(org, owner, { title: "Opening soon", startDate: opens.toISOString() });
    const { html } = await donatePage(org.slug, soon.slug);
    expect(html).toContain("Giving hasn&#x27;t opened yet");
    expect(html).toContain(`dateTime="${opens.toISOString()}"`);
    expect(html).toContain("No payment can be made on this page.");
  });
});

describe("donor records change only on payment", () => {
  it("a started but unpaid donation with a donor's email never renames her; a paid one does", async () => {
    const email = randomEmail("ada");
    const paid = await started(gift(campaign.id, { email, firstName: "Ada", lastName: "Lovelace" }));
    expect((await confirm(paid.clientSecret)).body.status).toBe("SUCCEEDED");
    const donorId = paid.donorId;

    // Someone else types her email with another name and never pays.
    const attack = await started(gift(campaign.id, { email: email.toUpperCase(), firstName: "Mallory", lastName: "Evil" }));
    expect(attack.donorId).toBe(donorId);
    const shown = await get(`/api/donors/${donorId}`, { token: owner.token });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
    const listed = await get(`/api/orgs/${org.id}/donors?q=${encodeURIComponent(email)}`, { token: owner.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((d: any) => [d.id, d.firstName, d.lastName])).toEqual([[donorId, "Ada", "Lovelace"]]);
    // A declined payment changes nothing either.
    expect((await confirm(attack.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");
    expect((await get(`/api/donors/${donorId}`, { token: owner.token })).body).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });

    // Her own next gift, paid, under her new name.
    const renamed = await started(gift(campaign.id, { email, firstName: "Ada", lastName: "King" }));
    expect((await get(`/api/donors/${donorId}`, { token: owner.token })).body).toMatchObject({ firstName: "Ada", lastName: "Lovelace" });
    expect((await confirm(renamed.clientSecret)).body.status).toBe("SUCCEEDED");
    expect((await get(`/api/donors/${donorId}`, { token: owner.token })).body).toMatchObject({
      firstName: "Ada",
      lastName: "King",
      donationCount: 2,
    });
  });

  it("a new email creates its donor with the donation's names", async () => {
    const d = await started(gift(campaign.id, { firstName: "Grace", lastName: "Hopper" }));
    expect((await get(`/api/donors/${d.donorId}`, { token: owner.token })).body).toMatchObject({ firstName: "Grace", lastName: "Hopper" });
  });
});

describe("card-testing defence", () => {
  async function failures(ip: string, n: number) {
    for (let i = 0; i < n; i++) {
      const d = await started(gift(campaign.id), ip);
      expect((await confirm(d.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");
    }
  }

  it("POST /api/donations from an IP with 4 failed payments in the hour is allowed; with 5 it is a 429 with Retry-After; other IPs still give", async () => {
    const ip = randomIp();
    await failures(ip, 4);
    const fifth = await started(gift(campaign.id), ip);
    expect((await confirm(fifth.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");

    const refused = await donate(gift(campaign.id), ip);
    expectError(refused, 429, "Too many failed payments, try again later");
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    await started(gift(campaign.id), randomIp());

    // The stored client IP is what the defence counted.
    const db = await testDb();
    const [row] = await db.select({ clientIp: donations.clientIp }).from(donations).where(eq(donations.id, fifth.id));
    expect(row.clientIp).toBe(ip);
  });

  it("a failure older than the window no longer counts, and Retry-After follows the oldest failure still counted", async () => {
    const ip = randomIp();
    await failures(ip, 5);
    expect((await donate(gift(campaign.id), ip)).status).toBe(429);
    const db = await testDb();
    const ids = (await db.select({ id: donations.id }).from(donations).where(eq(donations.clientIp, ip))).map((r) => r.id);
    // One failure left the window an hour ago; another is 50 minutes old (10 minutes left).
    await db
      .update(donations)
      .set({ paymentFailedAt: sql`now() - interval '61 minutes'` })
      .where(eq(donations.id, ids[0]));
    await started(gift(campaign.id), ip);
    await db
      .update(donations)
      .set({ paymentFailedAt: sql`now() - interval '50 minutes'` })
      .where(eq(donations.id, ids[1]));
    const again = await started(gift(campaign.id), ip);
    expect((await confirm(again.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");
    const refused = await donate(gift(campaign.id), ip);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
  });

  it("canceled payments and expired ticket holds count", async () => {
    const ip = randomIp();
    await failures(ip, 3);
    const canceled = await started(gift(campaign.id), ip);
    expect((await deliver(paymentCanceledEvent(canceled))).status).toBe(200);
    // 4 counted failures: still allowed. Held tickets never paid for are how a script keeps an
    // event sold out: an expired hold counts as a failed payment.
    const hold = await started(gift(event.id, { amount: 1000, tickets: 1 }), ip);
    await ageHolds([hold.id]);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    const db = await testDb();
    const [expired] = await db
      .select({ status: donations.status, paymentFailedAt: donations.paymentFailedAt })
      .from(donations)
      .where(eq(donations.id, hold.id));
    expect(expired.status).toBe("FAILED");
    expect(expired.paymentFailedAt).toBeInstanceOf(Date);
    expectError(await donate(gift(campaign.id), ip), 429, "Too many failed payments, try again later");
  });

  it("four expired ticket holds leave a client allowed; the fifth refuses it", async () => {
    const ip = randomIp();
    const holds = [];
    for (let i = 0; i < 5; i++) holds.push(await started(gift(event.id, { amount: 1000, tickets: 1 }), ip));
    await ageHolds(holds.slice(0, 4).map((h) => h.id));
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect((await donate(gift(campaign.id), ip)).status).toBe(201);
    await ageHolds([holds[4].id]);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expectError(await donate(gift(campaign.id), ip), 429, "Too many failed payments, try again later");
  });
});

describe("card-testing defence: declined ticket payments", () => {
  it("count while their tickets stay held, and stop counting once paid with another card", async () => {
    const ip = randomIp();
    const held = [];
    for (let i = 0; i < 5; i++) {
      const d = await started(gift(event.id, { amount: 1000, tickets: 1 }), ip);
      expect((await confirm(d.clientSecret, CARD_DECLINED)).body).toMatchObject({
        status: "PENDING",
        failureReason: "Your card was declined.",
      });
      held.push(d);
    }
    expectError(await donate(gift(campaign.id), ip), 429, "Too many failed payments, try again later");
    // A donor who then pays (the same payment, another card) no longer counts against the client.
    expect((await confirm(held[0].clientSecret, CARD_OK)).body.status).toBe("SUCCEEDED");
    expect((await donate(gift(campaign.id), ip)).status).toBe(201);
  });
});

describe("Turnstile", () => {
  const SECRET = "0x4AAAAAAAturnstile-test-secret";
  const GOOD = "good-token";
  let server: Server;
  let seen: Record<string, string>[] = [];

  async function standIn() {
    seen = [];
    server = createServer((req: IncomingMessage, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        seen.push({ ...form, contentType: String(req.headers["content-type"]) });
        const success = form.secret === SECRET && form.response === GOOD;
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify(
            success
              ? { success: true, "error-codes": [], hostname: "localhost" }
              : { success: false, "error-codes": ["invalid-input-response"] },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  }

  afterEach(async () => {
    delete process.env.TURNSTILE_SECRET_KEY;
    delete process.env.TURNSTILE_VERIFY_URL;
    resetEnv();
    if (server?.listening) await new Promise((resolve) => server.close(resolve));
  });

  it("with TURNSTILE_SECRET_KEY, POST /api/donations needs a captchaToken the verify service accepts", async () => {
    process.env.TURNSTILE_SECRET_KEY = SECRET;
    process.env.TURNSTILE_VERIFY_URL = await standIn();
    resetEnv();

    expectValidation(await donate(gift(campaign.id)), "captchaToken");
    expect(seen).toHaveLength(0);
    const before = await ticketsSold(event.id);
    expectValidation(await donate(gift(event.id, { amount: 1000, tickets: 1, captchaToken: "forged" })), "captchaToken");
    expect(await ticketsSold(event.id)).toBe(before);

    const ok = await donate(gift(campaign.id, { captchaToken: GOOD }), "203.0.113.7");
    expect(ok.status, ok.text).toBe(201);
    expect(seen.at(-1)).toEqual({
      secret: SECRET,
      response: GOOD,
      remoteip: "203.0.113.7",
      contentType: expect.stringContaining("application/x-www-form-urlencoded"),
    });
    expect(seen.at(-2)).toMatchObject({ secret: SECRET, response: "forged" });
  });

  it("fails closed: the verify service unreachable is a 503, and nothing is held", async () => {
    const url = await standIn();
    await new Promise((resolve) => server.close(resolve));
    process.env.TURNSTILE_SECRET_KEY = SECRET;
    process.env.TURNSTILE_VERIFY_URL = url;
    resetEnv();
    const before = await ticketsSold(event.id);
    const res = await donate(gift(event.id, { amount: 1000, tickets: 1, captchaToken: GOOD }));
    expectError(res, 503, "Captcha verification unavailable, please try again");
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await ticketsSold(event.id)).toBe(before);
  });

  it("without TURNSTILE_SECRET_KEY no token is needed and one given is ignored", async () => {
    await started(gift(campaign.id));
    await started(gift(campaign.id, { captchaToken: "anything" }));
  });
});

describe("POST /api/sandbox/payments/confirm", () => {
  it("refuses a client secret with the right PaymentIntent prefix but a wrong tail (404), and accepts the issued one", async () => {
    const d = await started(gift(campaign.id));
    const [prefix, tail] = d.clientSecret.split("_secret_");
    const flipped = tail.slice(0, -1) + (tail.endsWith("A") ? "B" : "A");
    expectError(await confirm(`${prefix}_secret_${flipped}`), 404, "Payment not found");
    expectError(await confirm(`${prefix}_secret_`), 404, "Payment not found");
    expectError(await confirm(`${prefix}_secret_${tail}x`), 404, "Payment not found");
    expectError(await confirm(prefix), 404, "Payment not found");
    expect((await confirm(d.clientSecret)).body.status).toBe("SUCCEEDED");
  });
});

describe("ticket holds", () => {
  it("the worker cancels an unpaid hold after TICKET_HOLD_MINUTES: FAILED with the reason, tickets free, the payment can't be confirmed", async () => {
    const gala = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 3 });
    const held = await started(gift(gala.id, { amount: 3000, tickets: 3 }));
    expect(await ticketsSold(gala.id)).toBe(3);
    expectError(await donate(gift(gala.id, { amount: 1000, tickets: 1 })), 409, "Sold out");

    // Not yet due: nothing happens.
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect((await get(`/api/donations/${held.id}`, { token: owner.token })).body.status).toBe("PENDING");

    await ageHolds([held.id]);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    const after = await get(`/api/donations/${held.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ status: "FAILED", failureReason: "Ticket hold expired after 30 minutes" });
    expect(after.body.timeline.map((e: any) => e.type)).toContain("ticket_hold.expired");
    expect(await ticketsSold(gala.id)).toBe(0);

    expectError(await confirm(held.clientSecret), 409, "This payment was canceled; please start a new donation");
    expectError(await confirm(held.clientSecret, CARD_DECLINED), 409, "This payment was canceled; please start a new donation");
    expect(await ticketsSold(gala.id)).toBe(0);
    await expectSeatsSellAgain(gala, 3);
  });

  it("a hold whose card was accepted is kept: the processor refuses the cancel, and the payment's own event settles it", async () => {
    const gala = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 5 });
    const paid = await started(gift(gala.id, { amount: 2000, tickets: 2 }));
    expect((await confirm(paid.clientSecret)).body.status).toBe("SUCCEEDED");
    const processor = await getProcessor();
    expect(await processor.cancelPaymentIntent({ paymentIntentId: paid.paymentIntentId!, donationId: paid.id })).toEqual({
      status: "succeeded",
    });

    // A card accepted while the donation is still PENDING (its success on its way) wins too.
    const racing = await started(gift(gala.id, { amount: 1000, tickets: 1 }));
    const db = await testDb();
    await db
      .insert(donationEvents)
      .values({ donationId: racing.id, type: "sandbox.payment_confirmed", data: { paymentIntentId: racing.paymentIntentId } });
    await ageHolds([racing.id]);
    await runWorkerOnce(db, { orgIds: [org.id] });
    expect((await get(`/api/donations/${racing.id}`, { token: owner.token })).body.status).toBe("PENDING");
    expect(await ticketsSold(gala.id)).toBe(3);
    expect((await confirm(racing.clientSecret)).body.status).toBe("SUCCEEDED");
    expect(await ticketsSold(gala.id)).toBe(3);
  });

  it("a declined card keeps the hold (sold out for others) until it expires; then the payment can't be confirmed and the seats sell again", async () => {
    const gala = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 2 });
    const held = await started(gift(gala.id, { amount: 2000, tickets: 2 }));
    expect((await confirm(held.clientSecret, CARD_DECLINED)).body).toMatchObject({
      status: "PENDING",
      failureReason: "Your card was declined.",
    });
    expect(await ticketsSold(gala.id)).toBe(2);
    expectError(await donate(gift(gala.id, { amount: 1000, tickets: 1 })), 409, "Sold out");

    await ageHolds([held.id]);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    const after = await get(`/api/donations/${held.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ status: "FAILED", failureReason: "Ticket hold expired after 30 minutes" });
    expect(after.body.timeline.map((e: any) => e.type)).toEqual(
      expect.arrayContaining(["payment_intent.payment_failed", "ticket_hold.expired"]),
    );
    expect(await ticketsSold(gala.id)).toBe(0);
    expectError(await confirm(held.clientSecret), 409, "This payment was canceled; please start a new donation");
    await expectSeatsSellAgain(gala, 2);
  });

  it("a payment_intent.canceled that follows the expiry keeps the expiry's reason and releases nothing twice", async () => {
    const gala = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 5 });
    const held = await started(gift(gala.id, { amount: 2000, tickets: 2 }));
    const other = await started(gift(gala.id, { amount: 1000, tickets: 1 }));
    await ageHolds([held.id]);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect(await ticketsSold(gala.id)).toBe(1);
    expect((await deliver(paymentCanceledEvent(held))).status).toBe(200);
    expect((await get(`/api/donations/${held.id}`, { token: owner.token })).body).toMatchObject({
      status: "FAILED",
      failureReason: "Ticket hold expired after 30 minutes",
    });
    expect(await ticketsSold(gala.id)).toBe(1);
    expect((await get(`/api/donations/${other.id}`, { token: owner.token })).body.status).toBe("PENDING");
  });
});
