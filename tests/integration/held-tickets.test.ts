/**
 * Held tickets per client (contract section 20): a client IP may hold at most
 * `maxTicketsPerOrder` × 2 of a campaign's seats in unpaid orders at once; past that,
 * POST /api/donations answers 429 (code `too_many_held_tickets`) until a hold is paid or expires.
 * Other clients, other campaigns and paid orders are unaffected, and no burst of concurrent
 * orders lets one client past the cap.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { donations } from "@/db/schema";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { TOO_MANY_HELD_TICKETS } from "@/lib/services/donations/held-tickets";
import { get, post, randomIp, type ApiResponse } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrg, CARD_OK, randomEmail, type Campaign, type Org } from "../helpers/records";
import type { TestUser } from "../helpers/api";

const PRICE = 1500;
const PER_ORDER = 4;
const CAP = PER_ORDER * 2;

let owner: TestUser;
let org: Org;
let gala: Campaign;
let dinner: Campaign;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  const event = { type: "EVENT", ticketPriceCents: PRICE, ticketCapacity: 200, maxTicketsPerOrder: PER_ORDER };
  gala = await activeCampaign(org, owner, { title: "Harbour gala", ...event });
  dinner = await activeCampaign(org, owner, { title: "Harbour dinner", ...event });
});

const order = (campaign: Campaign, tickets: number, ip: string) =>
  post(
    "/api/donations",
    { campaignId: campaign.id, amount: tickets * PRICE, tickets, email: randomEmail("buyer"), firstName: "Buyer" },
    { ip },
  );

function expectHeldRefusal(res: ApiResponse) {
  expect(res.status, res.text).toBe(429);
  expect(res.body).toEqual({ error: TOO_MANY_HELD_TICKETS, status: 429 });
  const retryAfter = Number(res.headers.get("retry-after"));
  // Until the oldest hold runs out (TICKET_HOLD_MINUTES, 30 by default).
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(30 * 60);
}

async function ticketsSold(campaign: Campaign): Promise<number> {
  return (await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body.ticketsSold;
}

describe("POST /api/donations: unpaid ticket holds per client", () => {
  it("lets a client hold two orders' worth of seats, refuses a third with 429 too_many_held_tickets, and holds no seat for it", async () => {
    const ip = randomIp();
    expect((await order(gala, PER_ORDER, ip)).status).toBe(201);
    expect((await order(gala, PER_ORDER, ip)).status).toBe(201);
    const before = await ticketsSold(gala);
    expectHeldRefusal(await order(gala, 1, ip));
    // The refused order reserved nothing.
    expect(await ticketsSold(gala)).toBe(before);
    // Other clients, and the same client on another campaign, are not affected.
    expect((await order(gala, PER_ORDER, randomIp())).status).toBe(201);
    expect((await order(dinner, PER_ORDER, ip)).status).toBe(201);
  });

  it("counts seats, not orders: up to the cap in any split, one seat over is refused", async () => {
    const ip = randomIp();
    for (const tickets of [3, 3, 2]) expect((await order(gala, tickets, ip)).status).toBe(201);
    expectHeldRefusal(await order(gala, 1, ip));
    const other = randomIp();
    expect((await order(gala, 3, other)).status).toBe(201);
    expect((await order(gala, 3, other)).status).toBe(201);
    expectHeldRefusal(await order(gala, 3, other));
    expect((await order(gala, 2, other)).status).toBe(201);
  });

  it("frees the client's room as holds are paid or expire", async () => {
    const ip = randomIp();
    const first = await order(gala, PER_ORDER, ip);
    const second = await order(gala, PER_ORDER, ip);
    expectHeldRefusal(await order(gala, PER_ORDER, ip));

    // Paid: those seats are sold, no longer held.
    const paid = await post("/api/sandbox/payments/confirm", { clientSecret: first.body.clientSecret, cardNumber: CARD_OK });
    expect(paid.body.status, paid.text).toBe("SUCCEEDED");
    const third = await order(gala, PER_ORDER, ip);
    expect(third.status, third.text).toBe(201);
    expectHeldRefusal(await order(gala, 1, ip));

    // Expired: the worker frees the seats and the client may hold them again.
    const db = await testDb();
    await db
      .update(donations)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(donations.id, second.body.id));
    await runWorkerOnce(db, { orgIds: [org.id] });
    const [expired] = await db.select({ status: donations.status }).from(donations).where(eq(donations.id, second.body.id));
    expect(expired.status).toBe("FAILED");
    expect((await order(gala, PER_ORDER, ip)).status).toBe(201);
  });

  it("lets no burst of concurrent orders take one client past the cap", async () => {
    const ip = randomIp();
    // Twelve orders of 3 seats at once: only two fit under the cap of 8 (a third would make 9).
    const results = await Promise.all(Array.from({ length: 12 }, () => order(gala, 3, ip)));
    const accepted = results.filter((r) => r.status === 201);
    for (const r of results.filter((x) => x.status !== 201)) expectHeldRefusal(r);
    expect(accepted).toHaveLength(2);
    const db = await testDb();
    const [held] = await db
      .select({ tickets: sql<number>`coalesce(sum(${donations.tickets}), 0)::int` })
      .from(donations)
      .where(sql`${donations.campaignId} = ${gala.id} and ${donations.clientIp} = ${ip} and ${donations.status} = 'PENDING'`);
    expect(Number(held.tickets)).toBe(6);
    expect(Number(held.tickets)).toBeLessThanOrEqual(CAP);
    // Every seat count still matches the donations.
    expect(await findViolations(db, [org.id])).toEqual([]);
  });
});
