/**
 * Checkouts started and never paid, through the real HTTP stack, the sandbox processor and the
 * worker: after ABANDONED_AFTER_HOURS (their creation time moved back in the database) the worker
 * cancels the payment and fails the donation with `failureReason` "abandoned"; fresh and settled
 * donations are left alone; the donations list and the thank-you page tell them apart.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { donations, recurringPlans } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { get, post, randomIp, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrg, CARD_DECLINED, CARD_OK, randomEmail, type Campaign, type Org } from "../helpers/records";

// The thank-you page reads the request's headers (which host and frame it is served in); rendered
// here outside a request, it gets an ordinary request's: none of them.
vi.mock("next/headers", async (original) => ({ ...(await original<typeof import("next/headers")>()), headers: async () => new Headers() }));

let owner: TestUser;
let org: Org;
let campaign: Campaign;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  campaign = await activeCampaign(org, owner, { allowRecurring: true });
});

afterEach(() => {
  delete process.env.ABANDONED_AFTER_HOURS;
  delete process.env.TICKET_HOLD_MINUTES;
  resetEnv();
});

const gift = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  campaignId,
  amount: 2500,
  email: randomEmail(),
  firstName: "Ada",
  ...extra,
});

async function started(body: Record<string, unknown>, ip = randomIp()) {
  const res = await post("/api/donations", body, { ip });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; clientSecret: string; paymentIntentId: string; recurringPlanId: string | null };
}

const confirm = (clientSecret: string, cardNumber = CARD_OK) => post("/api/sandbox/payments/confirm", { clientSecret, cardNumber });

/** Moves the donations' creation `hours` back. */
async function age(ids: string[], hours: number) {
  const db = await testDb();
  await db
    .update(donations)
    .set({ createdAt: sql`now() - ${`${hours} hours`}::interval` })
    .where(inArray(donations.id, ids));
}

const row = async (id: string) => (await (await testDb()).select().from(donations).where(eq(donations.id, id)))[0];
const work = async () => runWorkerOnce(await testDb(), { orgIds: [org.id] });

describe("the worker and abandoned checkouts", () => {
  it("a PENDING donation older than 24 hours is FAILED `abandoned`; a fresh one and a paid one are untouched", async () => {
    const old = await started(gift(campaign.id));
    const fresh = await started(gift(campaign.id));
    const paid = await started(gift(campaign.id));
    expect((await confirm(paid.clientSecret)).body.status).toBe("SUCCEEDED");
    const declined = await started(gift(campaign.id));
    expect((await confirm(declined.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");
    await age([old.id, paid.id, declined.id], 25);
    await age([fresh.id], 23);

    await work();
    const after = await get(`/api/donations/${old.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    expect(after.body.timeline.map((e: { type: string }) => e.type)).toContain("checkout.abandoned");
    expect(await row(fresh.id)).toMatchObject({ status: "PENDING", failureReason: null });
    expect(await row(paid.id)).toMatchObject({ status: "SUCCEEDED", failureReason: null });
    expect(await row(declined.id)).toMatchObject({ status: "FAILED", failureReason: "Your card was declined." });

    // The payment was canceled at the processor: it can no longer be paid.
    const late = await confirm(old.clientSecret);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ error: "This payment was canceled; please start a new donation", status: 409 });
    expect((await row(old.id)).status).toBe("FAILED");

    // A second run changes nothing more.
    await work();
    expect(await row(old.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });

  it("ABANDONED_AFTER_HOURS sets the age", async () => {
    process.env.ABANDONED_AFTER_HOURS = "2";
    resetEnv();
    const young = await started(gift(campaign.id));
    const older = await started(gift(campaign.id));
    await age([young.id], 1);
    await age([older.id], 3);
    await work();
    expect((await row(young.id)).status).toBe("PENDING");
    expect(await row(older.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
  });

  it("an abandoned event order releases its tickets", async () => {
    // Holds last longer than the abandonment age here, so it is the abandonment that frees them.
    process.env.TICKET_HOLD_MINUTES = String(48 * 60);
    resetEnv();
    const gala = await activeCampaign(org, owner, { title: "Gala", type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 3 });
    const order = await started(gift(gala.id, { amount: 3000, tickets: 3 }));
    expect((await get(`/api/campaigns/${gala.id}`, { token: owner.token })).body.ticketsSold).toBe(3);
    await age([order.id], 25);
    await work();
    expect(await row(order.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    expect((await get(`/api/campaigns/${gala.id}`, { token: owner.token })).body.ticketsSold).toBe(0);
    const next = await started(gift(gala.id, { amount: 3000, tickets: 3 }));
    expect((await confirm(next.clientSecret)).body.status).toBe("SUCCEEDED");
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });

  it("a recurring gift's unpaid first payment: its subscription is canceled, the plan CANCELED, the payment form refused", async () => {
    const monthly = await started(gift(campaign.id, { recurringInterval: "MONTH" }));
    expect(monthly.recurringPlanId).toBeTruthy();
    await age([monthly.id], 25);
    await work();
    expect(await row(monthly.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    const db = await testDb();
    const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, monthly.recurringPlanId!));
    expect(plan.status).toBe("CANCELED");
    expect(plan.canceledAt).not.toBeNull();
    const late = await confirm(monthly.clientSecret);
    expect(late.status).toBe(409);
    expect((await row(monthly.id)).status).toBe("FAILED");
  });

  it("abandoned checkouts don't count as failed payments for the card-testing defence", async () => {
    const ip = randomIp();
    const walked = [];
    for (let i = 0; i < 6; i++) walked.push(await started(gift(campaign.id), ip));
    await age(
      walked.map((w) => w.id),
      25,
    );
    await work();
    const states = await (
      await testDb()
    )
      .select({ status: donations.status })
      .from(donations)
      .where(
        inArray(
          donations.id,
          walked.map((w) => w.id),
        ),
      );
    expect(states.map((s) => s.status)).toEqual(Array(6).fill("FAILED"));
    expect((await post("/api/donations", gift(campaign.id), { ip })).status).toBe(201);
  });
});

describe("GET /api/orgs/:idOrSlug/donations and incomplete gifts", () => {
  it("lists every status by default, and exactly the statuses of a comma-separated `status`", async () => {
    const { owner: o, org: other } = await activeOrg();
    const c = await activeCampaign(other, o);
    const pending = await started(gift(c.id));
    const paid = await started(gift(c.id));
    expect((await confirm(paid.clientSecret)).body.status).toBe("SUCCEEDED");
    const failed = await started(gift(c.id));
    expect((await confirm(failed.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");

    const ids = async (query: string) => {
      const res = await get(`/api/orgs/${other.id}/donations${query}`, { token: o.token });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as { id: string }[]).map((d) => d.id).sort();
    };
    expect(await ids("")).toEqual([pending.id, paid.id, failed.id].sort());
    expect(await ids("?status=SUCCEEDED,DISPUTED,REFUNDED")).toEqual([paid.id]);
    expect(await ids("?status=PENDING,FAILED")).toEqual([pending.id, failed.id].sort());
    expect(await ids("?status=PENDING")).toEqual([pending.id]);

    const bad = await get(`/api/orgs/${other.id}/donations?status=SUCCEEDED,WON`, { token: o.token });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details.fieldErrors)).toEqual(["status"]);
    expect(bad.body.details.codes.status[0].code).toBe("invalid_value");
  });
});

describe("GET /o/:orgSlug/donate/:slug/thank-you", () => {
  const render = async (donationId: string, extra: Record<string, string> = {}) => {
    const { default: ThankYouPage } = await import("@/app/o/[orgSlug]/donate/[slug]/thank-you/page");
    const { renderToStaticMarkup } = await import("react-dom/server");
    return renderToStaticMarkup(
      await ThankYouPage({
        params: Promise.resolve({ orgSlug: org.slug, slug: campaign.slug }),
        searchParams: Promise.resolve({ donation: donationId, ...extra }),
      }),
    );
  };

  it("says an abandoned donation was not completed and nothing was charged, with a way back to the donate page", async () => {
    const d = await started(gift(campaign.id));
    await age([d.id], 25);
    await work();
    const html = await render(d.id);
    expect(html).toContain("This donation was not completed");
    expect(html).toContain("The payment was never finished, so nothing was charged. You can start a new gift.");
    expect(html).toContain(`href="/o/${org.slug}/donate/${campaign.slug}"`);
    expect(html).not.toContain("Checking again");
    expect(html).not.toContain("Almost there");
  });

  it("says the same of an expired ticket hold; a declined card still reads as a payment that didn't go through", async () => {
    const gala = await activeCampaign(org, owner, { title: "Dinner", type: "EVENT", ticketPriceCents: 1000, ticketCapacity: 5 });
    const held = await started(gift(gala.id, { amount: 1000, tickets: 1 }));
    await (
      await testDb()
    )
      .update(donations)
      .set({ createdAt: sql`now() - interval '31 minutes'` })
      .where(eq(donations.id, held.id));
    await work();
    const { default: ThankYouPage } = await import("@/app/o/[orgSlug]/donate/[slug]/thank-you/page");
    const { renderToStaticMarkup } = await import("react-dom/server");
    const expired = renderToStaticMarkup(
      await ThankYouPage({
        params: Promise.resolve({ orgSlug: org.slug, slug: gala.slug }),
        searchParams: Promise.resolve({ donation: held.id }),
      }),
    );
    expect(expired).toContain("This donation was not completed");

    const declined = await started(gift(campaign.id));
    expect((await confirm(declined.clientSecret, CARD_DECLINED)).body.status).toBe("FAILED");
    const html = await render(declined.id);
    expect(html).toContain("didn&#x27;t go through");
    expect(html).not.toContain("This donation was not completed");
    expect(html).not.toContain("Checking again");
  });
});
