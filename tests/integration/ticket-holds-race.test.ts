/**
 * Ten seats, forty buyers, through the real HTTP stack and the sandbox card form: buyers race for
 * the seats, half of the winners pay and half walk away; their holds expire (their creation time
 * is moved back past TICKET_HOLD_MINUTES) while a second wave of buyers races for seats and the
 * walkers try to pay late; then the remaining buyers take whatever was freed. Throughout, a
 * watcher reads the campaign: it never shows more tickets sold than seats. At the end every
 * aggregate matches the donations (tests/helpers/invariants.ts), no seat is paid for twice, and
 * no payment canceled by an expiry succeeded.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaigns, donationEvents, donations } from "@/db/schema";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { get, post, randomIp, type ApiResponse } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrg, CARD_OK, randomEmail } from "../helpers/records";

const CAPACITY = 10;
const PRICE = 1000;

type Hold = { id: string; clientSecret: string; tickets: number };

describe("ticket holds under concurrency", () => {
  it("40 buyers race for 10 seats while abandoned holds expire: never oversold, ticketsSold exact, every freed seat sold once", async () => {
    const db = await testDb();
    const { owner, org } = await activeOrg();
    const gala = await activeCampaign(org, owner, { title: "Gala", type: "EVENT", ticketPriceCents: PRICE, ticketCapacity: CAPACITY });

    // The watcher: the campaign as the API shows it, read over and over while the races run.
    let watching = true;
    const seen: number[] = [];
    const seenTier: number[] = [];
    const watcher = (async () => {
      while (watching) {
        const res = await get(`/api/campaigns/${gala.id}`, { token: owner.token });
        seen.push(res.body.ticketsSold);
        // The campaign created the old way is one tier, which counts the same seats.
        seenTier.push(res.body.ticketTiers[0].sold);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    const buy = (tickets: number) =>
      post(
        "/api/donations",
        { campaignId: gala.id, amount: tickets * PRICE, tickets, email: randomEmail("buyer"), firstName: "Buyer" },
        { ip: randomIp() },
      );
    const holdsOf = (responses: ApiResponse[]): Hold[] => {
      for (const r of responses) expect([201, 409], r.text).toContain(r.status);
      for (const r of responses.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: "Sold out", status: 409 });
      return responses
        .filter((r) => r.status === 201)
        .map((r) => ({ id: r.body.id, clientSecret: r.body.clientSecret, tickets: r.body.tickets }));
    };
    const pay = (h: Hold) => post("/api/sandbox/payments/confirm", { clientSecret: h.clientSecret, cardNumber: CARD_OK });

    // 1. Forty buyers, one ticket each, at once: exactly ten get a seat.
    const first = holdsOf(await Promise.all(Array.from({ length: 40 }, () => buy(1))));
    expect(first).toHaveLength(CAPACITY);

    // 2. Half of them pay; the other half walk away and their holds run out.
    const payers = first.slice(0, CAPACITY / 2);
    const walkers = first.slice(CAPACITY / 2);
    const paid = await Promise.all(payers.map(pay));
    for (const p of paid) expect(p.body.status, p.text).toBe("SUCCEEDED");
    await db
      .update(donations)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(
        inArray(
          donations.id,
          walkers.map((w) => w.id),
        ),
      );

    // 3. The expiry runs while a second wave (one or two tickets each) races for seats and the
    //    walkers try to pay late: each walker either pays before the cancel or is refused after it.
    const [second, late] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, i) => buy(1 + (i % 2)))),
      Promise.all(walkers.map(pay)),
      runWorkerOnce(db, { orgIds: [org.id] }),
      runWorkerOnce(db, { orgIds: [org.id] }),
    ]);
    for (const r of late) {
      if (r.status === 200) expect(["SUCCEEDED", "PENDING"]).toContain(r.body.status);
      else expect(r.body, r.text).toEqual({ error: "This payment was canceled; please start a new donation", status: 409 });
    }
    // Whatever the interleaving, a second pass finds nothing left to expire among the walkers.
    await runWorkerOnce(db, { orgIds: [org.id] });
    const walkerRows = await db
      .select()
      .from(donations)
      .where(
        inArray(
          donations.id,
          walkers.map((w) => w.id),
        ),
      );
    for (const w of walkerRows) {
      expect(["SUCCEEDED", "FAILED"], w.id).toContain(w.status);
      if (w.status === "FAILED") expect(w.failureReason).toBe("Ticket hold expired after 30 minutes");
    }
    const secondHolds = holdsOf(second);
    for (const r of await Promise.all(secondHolds.map(pay))) expect(r.body.status, r.text).toBe("SUCCEEDED");

    // 4. The remaining buyers take the freed seats, one at a time, until none is left.
    const third: Hold[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await buy(1);
      if (res.status === 409) break;
      third.push(...holdsOf([res]));
    }
    for (const r of await Promise.all(third.map(pay))) expect(r.body.status, r.text).toBe("SUCCEEDED");
    expect((await buy(1)).body).toEqual({ error: "Sold out", status: 409 });

    watching = false;
    await watcher;
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBeLessThanOrEqual(CAPACITY);
    expect(seenTier).toEqual(seen);

    // Every seat is sold exactly once, and the campaign's count is exactly the paid tickets.
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, gala.id));
    const [paidSeats] = await db
      .select({ tickets: sql<number>`coalesce(sum(${donations.tickets}), 0)::int` })
      .from(donations)
      .where(and(eq(donations.campaignId, gala.id), eq(donations.status, "SUCCEEDED")));
    const [pending] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(donations)
      .where(and(eq(donations.campaignId, gala.id), eq(donations.status, "PENDING")));
    expect(pending.n).toBe(0);
    expect(paidSeats.tickets).toBe(CAPACITY);
    expect(campaign.ticketsSold).toBe(paidSeats.tickets);
    const walkersPaid = walkerRows.filter((w) => w.status === "SUCCEEDED").length;
    const resold = secondHolds.reduce((n, h) => n + h.tickets, 0) + third.length;
    expect(payers.length + walkersPaid + resold).toBe(CAPACITY);

    // An expired hold's payment never succeeded afterwards.
    const expired = await db
      .select({ id: donationEvents.donationId })
      .from(donationEvents)
      .innerJoin(donations, eq(donations.id, donationEvents.donationId))
      .where(and(eq(donations.campaignId, gala.id), eq(donationEvents.type, "ticket_hold.expired")));
    expect(expired.length).toBe(walkerRows.filter((w) => w.status === "FAILED").length);
    expect(await findViolations(db, [org.id])).toEqual([]);
  });
});
