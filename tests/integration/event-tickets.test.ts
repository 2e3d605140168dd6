/**
 * Events with ticket tiers (contract section 15): tiers on EVENT campaigns, orders per tier with
 * attendees, the fair market value as the receipt's advantage, one Ticket per paid seat with an
 * unguessable code, check-in at the door (exactly once, also under concurrent scans), void tickets
 * after a refund, the attendee CSV, and no tier oversold by concurrent buyers on two app instances
 * while unpaid holds expire.
 */
import { execFileSync } from "node:child_process";
import { eq, inArray, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import { NextRequest } from "next/server";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import * as schema from "@/db/schema";
import { campaigns, donations, tickets } from "@/db/schema";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { createDonationBody } from "@/lib/schemas/donations";
import { createDonation } from "@/lib/services/donations/create-donation";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { get, post, patch, randomIp, routeHandlers, serverClientIpHeaders } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import {
  activeCampaign,
  activeOrg,
  CARD_DECLINED,
  CARD_OK,
  memberOf,
  outsider,
  randomEmail,
  type Campaign,
  type Org,
} from "../helpers/records";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const second = onPostgres ? postgres(process.env.TEST_DATABASE_URL!, { max: 10, onnotice: () => {} }) : null;
afterAll(async () => {
  await second?.end({ timeout: 5 });
});

const TIERS = [
  { name: "General", priceCents: 5_000, capacity: 10, fairMarketValueCents: 2_000, description: "Dinner and the show" },
  { name: "VIP", priceCents: 15_000, capacity: 4, fairMarketValueCents: 6_000 },
];

async function gala(extra: Record<string, unknown> = {}) {
  const { owner, org } = await activeOrg();
  const c = await activeCampaign(org, owner, { title: "Spring gala", type: "EVENT", ticketTiers: TIERS, ...extra });
  return { owner, org, campaign: c as Campaign };
}

const tierIds = (c: Campaign) => (c.ticketTiers as { id: string; name: string }[]).map((t) => t.id);

async function buy(campaignId: string, body: Record<string, unknown>) {
  return post(
    "/api/donations",
    { campaignId, email: randomEmail("buyer"), firstName: "Grace", lastName: "Hopper", ...body },
    { ip: randomIp() },
  );
}

async function payFor(clientSecret: string) {
  const res = await post("/api/sandbox/payments/confirm", { clientSecret, cardNumber: CARD_OK });
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe("SUCCEEDED");
  return res.body;
}

async function paidOrder(c: Campaign) {
  const [general, vip] = tierIds(c);
  const res = await buy(c.id, {
    amount: 2 * 5_000 + 15_000 + 2_500,
    extraAmount: 2_500,
    tickets: [
      { tierId: general, quantity: 2, attendees: [{ name: "Ada Lovelace", email: "ada@example.org" }, { name: "Charles Babbage" }] },
      { tierId: vip, quantity: 1, attendees: [{ name: "Mary Somerville" }] },
    ],
  });
  expect(res.status, res.text).toBe(201);
  await payFor(res.body.clientSecret);
  return res.body as { id: string };
}

/** The export's raw response (the helper decodes text, which drops a BOM). */
async function exportResponse(campaignId: string, token: string): Promise<Response> {
  const route = await routeHandlers("/api/campaigns/[id]/tickets/export");
  const req = new NextRequest(`http://localhost:3000/api/campaigns/${campaignId}/tickets/export`, {
    headers: { ...serverClientIpHeaders(randomIp()), authorization: `Bearer ${token}` },
  });
  return route.GET(req, { params: Promise.resolve({ id: campaignId }) });
}

async function ticketsOf(c: Campaign, token: string, q?: string) {
  const res = await get(`/api/campaigns/${c.id}/tickets${q ? `?q=${encodeURIComponent(q)}` : ""}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any[]; counts: any[] };
}

describe("ticket tiers", () => {
  it("an EVENT campaign takes 1–20 tiers with price, capacity, fair market value and description", async () => {
    const { campaign, owner } = await gala();
    expect(campaign.ticketTiers).toEqual([
      { id: expect.any(String), sold: 0, ...TIERS[0] },
      { id: expect.any(String), sold: 0, description: null, ...TIERS[1] },
    ]);
    expect(campaign.ticketCapacity).toBe(14);
    expect(campaign.ticketPriceCents).toBe(5_000);

    const bad = async (tiers: unknown, field: string) => {
      const res = await patch(`/api/campaigns/${campaign.id}`, { ticketTiers: tiers }, { token: owner.token });
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body.details.fieldErrors).join(" ")).toContain(field);
    };
    await bad([], "ticketTiers");
    await bad(
      Array.from({ length: 21 }, (_, i) => ({ name: `T${i}`, priceCents: 1000, capacity: 1 })),
      "ticketTiers",
    );
    await bad([{ name: "Too generous", priceCents: 1000, capacity: 5, fairMarketValueCents: 1001 }], "ticketTiers.0.fairMarketValueCents");
    await bad([{ name: "", priceCents: 1000, capacity: 5 }], "ticketTiers.0.name");
    await bad([{ name: "Free", priceCents: 0, capacity: 5 }], "ticketTiers.0.priceCents");
    await bad([{ id: "tier_nope", name: "Ghost", priceCents: 1000, capacity: 5 }], "ticketTiers.0.id");

    // Editing keeps ids; a third tier is added.
    const [general, vip] = tierIds(campaign);
    const res = await patch(
      `/api/campaigns/${campaign.id}`,
      {
        ticketTiers: [
          { id: general, ...TIERS[0], capacity: 12 },
          { id: vip, ...TIERS[1] },
          { name: "Table of 8", priceCents: 80_000, capacity: 2, fairMarketValueCents: 30_000 },
        ],
      },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.ticketTiers.map((t: any) => [t.id === general || t.id === vip, t.capacity])).toEqual([
      [true, 12],
      [true, 4],
      [false, 2],
    ]);
    expect(res.body.ticketCapacity).toBe(18);
  });

  it("a campaign created the old way is one tier, bought with the integer form", async () => {
    const { owner, org } = await activeOrg();
    const c = await activeCampaign(org, owner, { type: "EVENT", ticketPriceCents: 2_000, ticketCapacity: 3 });
    expect(c.ticketTiers).toEqual([
      { id: "general", name: "General admission", priceCents: 2_000, capacity: 3, sold: 0, fairMarketValueCents: 0, description: null },
    ]);
    const res = await buy(c.id, { amount: 4_000, tickets: 2 });
    expect(res.status, res.text).toBe(201);
    expect(res.body.tickets).toBe(2);
    await payFor(res.body.clientSecret);
    const after = await get(`/api/campaigns/${c.id}`, { token: owner.token });
    expect(after.body.ticketsSold).toBe(2);
    expect(after.body.ticketTiers[0].sold).toBe(2);
    const list = await ticketsOf(c as Campaign, owner.token);
    expect(list.data.map((t) => [t.tierId, t.attendeeName])).toEqual([
      ["general", "Grace Hopper"],
      ["general", "Grace Hopper"],
    ]);
    // The array form names the single tier too.
    const arr = await buy(c.id, { amount: 2_000, tickets: [{ tierId: "general", quantity: 1 }] });
    expect(arr.status, arr.text).toBe(201);
    expect((await buy(c.id, { amount: 2_000, tickets: 1 })).body).toEqual({ error: "Sold out", status: 409 });
  });

  it("prices an order: Σ price × quantity + extraAmount, advantage = Σ fair market value × quantity", async () => {
    const { campaign } = await gala();
    const [general, vip] = tierIds(campaign);
    const fields = async (body: Record<string, unknown>) => {
      const res = await buy(campaign.id, body);
      expect(res.status, res.text).toBe(400);
      return Object.keys(res.body.details.fieldErrors);
    };
    expect(await fields({ amount: 5_000, tickets: 1 })).toEqual(["tickets"]); // two tiers: the integer form can't choose
    expect(await fields({ amount: 9_999, tickets: [{ tierId: general, quantity: 2 }] })).toEqual(["amount"]);
    expect(await fields({ amount: 5_000, tickets: [{ tierId: "tier_other", quantity: 1 }] })).toEqual(["tickets.0.tierId"]);
    expect(
      await fields({
        amount: 10_000,
        tickets: [
          { tierId: general, quantity: 1 },
          { tierId: general, quantity: 1 },
        ],
      }),
    ).toEqual(["tickets"]);
    expect(await fields({ amount: 5_000, tickets: [{ tierId: general, quantity: 1, attendees: [{ name: "A" }, { name: "B" }] }] })).toEqual(
      ["tickets.0.attendees"],
    );
    expect(await fields({ amount: 5_000, tickets: [{ tierId: general, quantity: 1, attendees: [{ name: "A", email: "nope" }] }] })).toEqual(
      ["tickets.0.attendees.0.email"],
    );
    expect(await fields({ amount: 5_000, tickets: [{ tierId: general, quantity: 0 }] })).toEqual(["tickets.0.quantity"]);

    const res = await buy(campaign.id, {
      amount: 5_000 + 2 * 15_000 + 1_000,
      extraAmount: 1_000,
      tickets: [
        { tierId: general, quantity: 1 },
        { tierId: vip, quantity: 2 },
      ],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      amount: 36_000,
      tickets: 3,
      advantageCents: 2_000 + 2 * 6_000,
      deductibleAmountCents: 36_000 - 14_000,
    });
    // Unpaid, the seats are held per tier.
    const db = await testDb();
    const [row] = await db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(row.ticketTiers!.map((t) => t.sold)).toEqual([1, 2]);
    expect(row.ticketsSold).toBe(3);
    // A tier that is full refuses the order as a whole.
    expect((await buy(campaign.id, { amount: 45_000, tickets: [{ tierId: vip, quantity: 3 }] })).body).toEqual({
      error: "Sold out",
      status: 409,
    });
    const [unchanged] = await db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
    expect(unchanged.ticketTiers!.map((t) => t.sold)).toEqual([1, 2]);
    expect(unchanged.ticketsSold).toBe(3);
  });
});

describe("tickets and check-in", () => {
  it("a paid order becomes one Ticket per seat, named after its attendee, with an unguessable code", async () => {
    const { campaign, owner } = await gala();
    const order = await paidOrder(campaign);
    const list = await ticketsOf(campaign, owner.token);
    expect(list.data).toHaveLength(3);
    expect(list.data.map((t) => [t.attendeeName, t.tierName, t.status, t.checkedInAt, t.donationId])).toEqual([
      ["Ada Lovelace", "General", "VALID", null, order.id],
      ["Charles Babbage", "General", "VALID", null, order.id],
      ["Mary Somerville", "VIP", "VALID", null, order.id],
    ]);
    for (const t of list.data) expect(t.code).toMatch(/^[A-Z2-7]{24}$/);
    expect(new Set(list.data.map((t) => t.code)).size).toBe(3);
    expect(list.data[0].attendeeEmail).toBe("ada@example.org");
    // The check-in desk polls the counts alone.
    const countsOnly = await get(`/api/campaigns/${campaign.id}/tickets?countsOnly=true`, { token: owner.token });
    expect(countsOnly.body.data).toEqual([]);
    expect(countsOnly.body.counts).toEqual(list.counts);
    expect(list.counts).toEqual(
      expect.arrayContaining([
        { tierId: tierIds(campaign)[0], tierName: "General", sold: 2, checkedIn: 0 },
        { tierId: tierIds(campaign)[1], tierName: "VIP", sold: 1, checkedIn: 0 },
      ]),
    );
    // Search by attendee or buyer.
    expect((await ticketsOf(campaign, owner.token, "babb")).data.map((t) => t.attendeeName)).toEqual(["Charles Babbage"]);
    expect((await ticketsOf(campaign, owner.token, "grace hop")).data).toHaveLength(3);
    // An unpaid order has no tickets yet.
    const [general] = tierIds(campaign);
    await buy(campaign.id, { amount: 5_000, tickets: [{ tierId: general, quantity: 1, attendees: [{ name: "Unpaid Person" }] }] });
    expect((await ticketsOf(campaign, owner.token, "Unpaid")).data).toEqual([]);
  });

  it("checks a ticket in once: again 409 already_checked_in with the time; another event's code 404", async () => {
    const { campaign, owner, org } = await gala();
    await paidOrder(campaign);
    const staff = await memberOf(org as Org, owner, "MEMBER");
    const [ada] = (await ticketsOf(campaign, owner.token, "Ada")).data;
    const first = await post(`/api/campaigns/${campaign.id}/check-ins`, { code: ada.code }, { token: staff.token });
    expect(first.status, first.text).toBe(200);
    expect(first.body.ticket).toMatchObject({ id: ada.id, attendeeName: "Ada Lovelace", tierName: "General", status: "VALID" });
    expect(Date.parse(first.body.ticket.checkedInAt)).not.toBeNaN();
    // Lower case and spaces around it (typed by hand) are the same code.
    const again = await post(`/api/campaigns/${campaign.id}/check-ins`, { code: ` ${ada.code.toLowerCase()} ` }, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: `Already checked in at ${first.body.ticket.checkedInAt}`,
      status: 409,
      code: "already_checked_in",
    });
    const other = await gala();
    const res = await post(`/api/campaigns/${other.campaign.id}/check-ins`, { code: ada.code }, { token: other.owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Ticket not found", status: 404 });
    const counts = (await ticketsOf(campaign, owner.token)).counts.find((c) => c.tierName === "General");
    expect(counts).toMatchObject({ sold: 2, checkedIn: 1 });
  });

  it("10 concurrent check-ins of one code: exactly one 200", async () => {
    const { campaign, owner } = await gala();
    await paidOrder(campaign);
    const [t] = (await ticketsOf(campaign, owner.token, "Mary")).data;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(`/api/campaigns/${campaign.id}/check-ins`, { code: t.code }, { token: owner.token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe("already_checked_in");
  });

  it("a refunded order voids its tickets: 409 ticket_not_valid; its seats go back to the tiers", async () => {
    const { campaign, owner } = await gala();
    const order = await paidOrder(campaign);
    const refund = await post(`/api/donations/${order.id}/refund`, undefined, { token: owner.token });
    expect(refund.status, refund.text).toBe(200);
    const list = await ticketsOf(campaign, owner.token);
    expect(list.data.map((t) => [t.status, t.voidReason])).toEqual(Array(3).fill(["VOID", "refunded"]));
    const res = await post(`/api/campaigns/${campaign.id}/check-ins`, { code: list.data[0].code }, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Not valid: refunded", status: 409, code: "ticket_not_valid" });
    const after = await get(`/api/campaigns/${campaign.id}`, { token: owner.token });
    expect(after.body.ticketTiers.map((t: any) => t.sold)).toEqual([0, 0]);
    expect(after.body.ticketsSold).toBe(0);
  });

  it("erasing the buyer removes every name and address from their tickets and order; the tickets stay valid at the door", async () => {
    const { campaign, owner, org } = await gala();
    const order = await paidOrder(campaign);
    const db = await testDb();
    const [{ donorId }] = await db.select({ donorId: donations.donorId }).from(donations).where(eq(donations.id, order.id));
    const erased = await post(`/api/orgs/${org.id}/donors/${donorId}/erase`, undefined, { token: owner.token });
    expect(erased.status, erased.text).toBe(200);
    const list = await ticketsOf(campaign, owner.token);
    expect(list.data.map((t) => [t.attendeeName, t.attendeeEmail, t.status])).toEqual(Array(3).fill(["Erased", null, "VALID"]));
    expect((await ticketsOf(campaign, owner.token, "Lovelace")).data).toEqual([]);
    const [row] = await db.select({ ticketOrder: donations.ticketOrder }).from(donations).where(eq(donations.id, order.id));
    expect(row.ticketOrder!.map((l) => [l.quantity, l.attendees])).toEqual([
      [2, []],
      [1, []],
    ]);
    const res = await post(`/api/campaigns/${campaign.id}/check-ins`, { code: list.data[0].code }, { token: owner.token });
    expect(res.status, res.text).toBe(200);
  });

  it("the attendee CSV is spreadsheet-friendly: BOM, quoted, formulas neutralized", async () => {
    const { campaign, owner } = await gala();
    const [general] = tierIds(campaign);
    const res = await buy(campaign.id, {
      amount: 10_000,
      tickets: [{ tierId: general, quantity: 2, attendees: [{ name: "=HYPERLINK(1)" }, { name: 'Smith, "Jo"' }] }],
    });
    await payFor(res.body.clientSecret);
    const csv = await get(`/api/campaigns/${campaign.id}/tickets/export`, { token: owner.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.text.replace(/^\uFEFF/, "").startsWith("attendee_name,attendee_email,tier,ticket_code")).toBe(true);
    const bytes = new Uint8Array(await (await exportResponse(campaign.id, owner.token)).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text).toContain("'=HYPERLINK(1),,General,");
    expect(csv.text).toContain('"Smith, ""Jo""",,General,');
  });

  it("401 without a token, 403 for a non-member, 404 for an unknown event", async () => {
    const { campaign } = await gala();
    const stranger = await outsider();
    for (const [method, path, body] of [
      ["GET", `/api/campaigns/${campaign.id}/tickets`, undefined],
      ["GET", `/api/campaigns/${campaign.id}/tickets/export`, undefined],
      ["POST", `/api/campaigns/${campaign.id}/check-ins`, { code: "ABCDEFGHIJKLMNOPQRSTUVWX" }],
    ] as const) {
      const call = (token?: string, p: string = path) => (method === "GET" ? get(p, { token }) : post(p, body, { token }));
      expect((await call()).status, path).toBe(401);
      expect((await call(stranger.token)).status, path).toBe(403);
      const unknown = await call(stranger.token, path.replace(campaign.id, "cmp_unknown"));
      expect(unknown.status, path).toBe(404);
      expect(unknown.body.error).toBe("Campaign not found");
    }
  });

  it("the receipt PDF states the deductible amount: price minus the tiers' fair market value", async () => {
    const { campaign, owner } = await gala();
    const order = await paidOrder(campaign);
    const route = await routeHandlers("/api/donations/[id]/receipt.pdf");
    const req = new NextRequest(`http://localhost:3000/api/donations/${order.id}/receipt.pdf`, {
      headers: { ...serverClientIpHeaders(randomIp()), authorization: `Bearer ${owner.token}` },
    });
    const res = await route.GET(req, { params: Promise.resolve({ id: order.id }) });
    expect(res.status).toBe(200);
    const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: new Uint8Array(await res.arrayBuffer()) })
      .toString("utf8")
      .replace(/[ \t]+/g, " ");
    // 2 × $50 + $150 + $25 extra = $275; advantage 2 × $20 + $60 = $100; deductible $175.
    expect(text).toContain("Value of goods or services provided $100.00");
    expect(text).toContain("Deductible amount $175.00");
  });
});

describe("no tier oversold", () => {
  it("a declined card keeps the order's tier seats; paying then takes none twice; once the hold expired the payment is refused", async () => {
    const { campaign, org } = await gala();
    const [, vip] = tierIds(campaign);
    const db = await testDb();
    const sold = async () => {
      const [row] = await db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
      return row.ticketTiers!.find((t) => t.id === vip)!.sold;
    };
    const confirm = (clientSecret: string, cardNumber: string) => post("/api/sandbox/payments/confirm", { clientSecret, cardNumber });

    const first = await buy(campaign.id, { amount: 15_000, tickets: [{ tierId: vip, quantity: 1 }] });
    expect(first.status, first.text).toBe(201);
    expect((await confirm(first.body.clientSecret, CARD_DECLINED)).body.status).toBe("PENDING");
    expect(await sold()).toBe(1);
    await payFor(first.body.clientSecret);
    expect(await sold()).toBe(1);

    // The other three VIP seats: one order declines and walks away, then the others sell out the tier.
    const walker = await buy(campaign.id, { amount: 45_000, tickets: [{ tierId: vip, quantity: 3 }] });
    expect(walker.status, walker.text).toBe(201);
    expect((await confirm(walker.body.clientSecret, CARD_DECLINED)).body.status).toBe("PENDING");
    expect((await buy(campaign.id, { amount: 15_000, tickets: [{ tierId: vip, quantity: 1 }] })).status).toBe(409);
    await db
      .update(donations)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(donations.id, walker.body.id));
    await runWorkerOnce(db, { orgIds: [org.id] });
    expect(await sold()).toBe(1);
    const late = await buy(campaign.id, { amount: 45_000, tickets: [{ tierId: vip, quantity: 3 }] });
    expect(late.status, late.text).toBe(201);
    await payFor(late.body.clientSecret);
    expect(await sold()).toBe(4);
    // The walker comes back with a good card: its payment was canceled with the hold.
    const again = await confirm(walker.body.clientSecret, CARD_OK);
    expect(again.status, again.text).toBe(409);
    expect(again.body.error).toBe("This payment was canceled; please start a new donation");
    expect(await sold()).toBe(4);
    expect(await findViolations(db, [org.id])).toEqual([]);
  });

  it(`50 concurrent buyers ${onPostgres ? "across two app instances" : "through the route handlers"}, while unpaid holds expire`, async () => {
    const db = await testDb();
    const other = second ? (drizzle(second, { schema, casing: "snake_case" }) as unknown as Db) : db;
    const { campaign, org } = await gala({ maxTicketsPerOrder: 4 });
    const [general, vip] = tierIds(campaign);
    const processor = await getProcessor();
    const orderOf = (i: number) =>
      i % 3 === 0
        ? [{ tierId: vip, quantity: 1 }]
        : i % 3 === 1
          ? [{ tierId: general, quantity: 2 }]
          : [
              { tierId: general, quantity: 1 },
              { tierId: vip, quantity: 1 },
            ];
    const priceOf = (lines: { tierId: string; quantity: number }[]) =>
      lines.reduce((n, l) => n + l.quantity * (l.tierId === vip ? 15_000 : 5_000), 0);
    // Half the buyers go through the HTTP handlers of this instance, half through the service on a second database client.
    const buyOne = async (i: number) => {
      const lines = orderOf(i);
      const body = { campaignId: campaign.id, amount: priceOf(lines), tickets: lines, email: randomEmail("race"), firstName: "Racer" };
      if (i % 2 === 0) {
        const res = await post("/api/donations", body, { ip: randomIp() });
        expect([201, 409], res.text).toContain(res.status);
        if (res.status === 409) expect(res.body).toEqual({ error: "Sold out", status: 409 });
        return res.status === 201 ? { id: res.body.id as string, clientSecret: res.body.clientSecret as string } : null;
      }
      try {
        const created = await createDonation(other, processor, createDonationBody.parse(body), { clientIp: randomIp() });
        return { id: created.donation.id, clientSecret: created.clientSecret };
      } catch (err) {
        expect((err as { code?: string }).code).toBe("sold_out");
        return null;
      }
    };
    const check = async () => {
      const [row] = await db.select().from(campaigns).where(eq(campaigns.id, campaign.id));
      const tiers = row.ticketTiers!;
      for (const t of tiers) expect(t.sold, t.name).toBeLessThanOrEqual(t.capacity);
      // Each tier's count is exactly the seats of the orders that hold them.
      const held = await db
        .select({ order: donations.ticketOrder })
        .from(donations)
        .where(sql`${donations.campaignId} = ${campaign.id} and ${donations.status} in ('PENDING', 'SUCCEEDED', 'DISPUTED')`);
      for (const t of tiers) {
        const seats = held
          .flatMap((h) => h.order ?? [])
          .filter((l) => l.tierId === t.id)
          .reduce((n, l) => n + l.quantity, 0);
        expect(t.sold, t.name).toBe(seats);
      }
      expect(row.ticketsSold).toBe(tiers.reduce((n, t) => n + t.sold, 0));
      return tiers;
    };

    const wave1 = (await Promise.all(Array.from({ length: 50 }, (_, i) => buyOne(i)))).filter((x) => x !== null);
    const tiers1 = await check();
    expect(tiers1.find((t) => t.id === vip)!.sold).toBe(4); // the scarce tier is full
    // Half pay; the others walk away and their holds expire while a second wave races.
    const payers = wave1.filter((_, i) => i % 2 === 0);
    const walkers = wave1.filter((_, i) => i % 2 === 1);
    for (const p of payers) await payFor(p.clientSecret);
    await db
      .update(donations)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(
        inArray(
          donations.id,
          walkers.map((w) => w.id),
        ),
      );
    const [wave2] = await Promise.all([
      Promise.all(Array.from({ length: 50 }, (_, i) => buyOne(i + 1))),
      runWorkerOnce(db, { orgIds: [org.id] }),
    ]);
    await runWorkerOnce(db, { orgIds: [org.id] });
    await check();
    // A buyer who comes back after their hold expired can't pay: the payment was canceled with
    // the hold, so seats already sold to the second wave are never taken back past a capacity.
    for (const w of walkers.slice(0, 3)) {
      const late = await post("/api/sandbox/payments/confirm", { clientSecret: w.clientSecret, cardNumber: CARD_OK });
      expect(late.status, late.text).toBe(409);
      expect(late.body.error).toBe("This payment was canceled; please start a new donation");
    }
    await check();
    for (const w of wave2.filter((x) => x !== null)) await payFor(w.clientSecret);
    const final = await check();
    // Every valid ticket matches a paid seat, never more than the capacity.
    const valid = await db
      .select({ tierId: tickets.tierId, n: sql<number>`count(*)::int` })
      .from(tickets)
      .where(sql`${tickets.campaignId} = ${campaign.id} and ${tickets.status} = 'VALID'`)
      .groupBy(tickets.tierId);
    for (const v of valid) expect(Number(v.n)).toBeLessThanOrEqual(final.find((t) => t.id === v.tierId)!.capacity);
    expect(await findViolations(db, [org.id])).toEqual([]);
  }, 180_000);
});
