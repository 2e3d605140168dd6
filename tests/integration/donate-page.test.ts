/**
 * The hosted donate page as the server answers it: rendered without the framework's scripts, and
 * its form posted to the page itself, checked with the form's rules, offered the monthly upsell,
 * and turned into a donation through POST /api/donations's own handler before the card step.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { get, type TestUser } from "../helpers/api";
import { donatePage } from "../helpers/donate-page";
import { activeCampaign, activeOrg, randomEmail, type Campaign, type Org } from "../helpers/records";

let owner: TestUser;
let org: Org;
let appeal: Campaign;
let upsell: Campaign;
let gala: Campaign;

const attemptOf = (html: string) => /name="attempt" value="([0-9a-f]{32})"/.exec(html)?.[1] ?? "";
const donationOf = (location: string | null) => /[?&]donation=([^&#]+)/.exec(location ?? "")?.[1] ?? "";
const invalidNames = (html: string) => [...html.matchAll(/<input[^>]*aria-invalid="true"[^>]*name="([^"]+)"/g)].map((m) => m[1]);

async function donation(id: string) {
  const res = await get(`/api/donations/${id}`, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  appeal = await activeCampaign(org, owner, { title: "Warm coats", suggestedAmounts: [2500, 5000, 10000], monthlyUpsell: false });
  upsell = await activeCampaign(org, owner, { title: "Soup fund", suggestedAmounts: [1000, 2500, 5000], monthlyUpsell: true });
  gala = await activeCampaign(org, owner, {
    title: "Lantern gala",
    type: "EVENT",
    startDate: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    ticketTiers: [
      { name: "General", priceCents: 5_000, capacity: 10 },
      { name: "Patron", priceCents: 20_000, capacity: 2 },
    ],
  });
});

describe("GET /o/:orgSlug/donate/:slug", () => {
  it("renders the page with no framework script: only the page's own, and its data", async () => {
    const page = await donatePage(org.slug, appeal.slug);
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("private, no-cache");
    const scripts = [...page.html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    expect(scripts).toEqual([' type="application/json" id="donate-page-data"', ' src="/donate-page.js" defer=""']);
    expect(page.html).toContain("Warm coats");
    expect(page.html).toMatch(/<form[^>]*method="post"/);
    expect(attemptOf(page.html)).toMatch(/^[0-9a-f]{32}$/);
  });

  it("opens a reminder's gift again from ?amount= and ?frequency=", async () => {
    const page = await donatePage(org.slug, appeal.slug, { query: "?amount=1234&frequency=MONTH" });
    expect(page.html).toMatch(/name="amount.custom" value="12.34"/);
    expect(page.html).toMatch(/checked="" value="MONTH"|value="MONTH" checked=""/);
  });

  it("answers 404 with the way on to the organization's page for an unknown campaign", async () => {
    const page = await donatePage(org.slug, "no-such-campaign");
    expect(page.status).toBe(404);
    expect(page.html).toContain(`href="/o/${org.slug}"`);
  });
});

describe("POST /o/:orgSlug/donate/:slug", () => {
  it("shows each problem next to its field, keeping what was typed, and creates nothing", async () => {
    const before = await donatePage(org.slug, appeal.slug);
    const page = await donatePage(org.slug, appeal.slug, {
      form: {
        attempt: attemptOf(before.html),
        "amount.custom": "0.50",
        recurringInterval: "ONCE",
        email: "not-an-email",
        firstName: "Ada",
      },
    });
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(invalidNames(page.html)).toEqual(["amount.custom", "lastName", "email"]);
    expect(page.html).toContain("The minimum gift is");
    expect(page.html).toContain("Enter an email address like name@example.com");
    expect(page.html).toMatch(/name="firstName" value="Ada"/);
    expect(page.html).toMatch(/data-focus="problem"/);
  });

  it("creates the donation and sends the donor to the card step; the same gift sent again is the same donation", async () => {
    const email = randomEmail("page");
    const attempt = attemptOf((await donatePage(org.slug, appeal.slug)).html);
    const form = { attempt, amount: "5000", recurringInterval: "ONCE", firstName: "Ada", lastName: "Lovelace", email, coverFees: "on" };
    const first = await donatePage(org.slug, appeal.slug, { form });
    expect(first.status).toBe(303);
    expect(first.location).toMatch(new RegExp(`^/o/${org.slug}/donate/${appeal.slug}/pay\\?donation=[^#]+#.+_secret_`));
    const created = await donation(donationOf(first.location));
    expect(created).toMatchObject({ amount: 5000, status: "PENDING", campaignId: appeal.id });
    expect(created.feeCents).toBeGreaterThan(0);

    // A double click, or the same gift sent again after Back: the same key, the same donation.
    const again = await donatePage(org.slug, appeal.slug, { form });
    expect(donationOf(again.location)).toBe(created.id);
    // Another gift in the same attempt is another donation.
    const other = await donatePage(org.slug, appeal.slug, { form: { ...form, amount: "10000" } });
    expect(donationOf(other.location)).not.toBe(created.id);
    expect((await donation(donationOf(other.location))).amount).toBe(10000);
  });

  it("offers the monthly upsell once, and takes the answer", async () => {
    const email = randomEmail("upsell");
    const form = { attempt: "ab".repeat(16), amount: "5000", recurringInterval: "ONCE", firstName: "Ada", lastName: "Lovelace", email };
    const offered = await donatePage(org.slug, upsell.slug, { form });
    expect(offered.status).toBe(200);
    expect(offered.html).toMatch(/data-focus="upsell"/);
    expect(offered.html).toMatch(/<button type="submit" value="ACCEPTED"[^>]*name="upsell"/);

    const accepted = await donatePage(org.slug, upsell.slug, { form: { ...form, upsell: "ACCEPTED" } });
    expect(accepted.status).toBe(303);
    expect(await donation(donationOf(accepted.location))).toMatchObject({ amount: 2500, recurringInterval: "MONTH" });

    const declined = await donatePage(org.slug, upsell.slug, { form: { ...form, attempt: "cd".repeat(16), upsell: "DECLINED" } });
    expect(await donation(donationOf(declined.location))).toMatchObject({ amount: 5000, recurringInterval: null });
  });

  it("buys an event's seats per tier with their attendees", async () => {
    const [general, patron] = (gala.ticketTiers as { id: string }[]).map((t) => t.id);
    const page = await donatePage(org.slug, gala.slug, {
      form: {
        attempt: "ef".repeat(16),
        [`ticketOrder.${general}.quantity`]: "2",
        [`ticketOrder.${general}.0.name`]: "Grace Hopper",
        [`ticketOrder.${general}.1.name`]: "",
        [`ticketOrder.${patron}.quantity`]: "1",
        extraGift: "10",
        firstName: "Ada",
        lastName: "Lovelace",
        email: randomEmail("gala"),
      },
    });
    expect(page.status, page.html.slice(0, 400)).toBe(303);
    expect(await donation(donationOf(page.location))).toMatchObject({ amount: 2 * 5_000 + 20_000 + 1_000, tickets: 3 });
  });

  it("refuses what is not a form with a clear message, and a closed campaign takes nothing", async () => {
    const odd = await donatePage(org.slug, appeal.slug, { headers: { "content-type": "application/json" }, form: { amount: "5000" } });
    expect(odd.status).toBe(400);
    expect(odd.html).toContain('role="alert"');

    const ended = await activeCampaign(org, owner, { title: "Last winter", endDate: new Date(Date.now() + 60_000).toISOString() });
    const { patch } = await import("../helpers/api");
    expect((await patch(`/api/campaigns/${ended.id}`, { status: "ENDED" }, { token: owner.token })).status).toBe(200);
    const closed = await donatePage(org.slug, ended.slug, {
      form: { attempt: "01".repeat(16), amount: "2500", firstName: "A", lastName: "B", email: randomEmail() },
    });
    expect(closed.status).toBe(200);
    expect(closed.location).toBeNull();
    expect(closed.html).not.toContain("<form");
  });

  it("answers any form with the page or the card step, never an error (fuzzed)", async () => {
    const field = fc.constantFrom(
      "amount",
      "amount.custom",
      "recurringInterval",
      "firstName",
      "lastName",
      "email",
      "message",
      "dedicate",
      "dedication.type",
      "dedication.honoreeName",
      "coverFees",
      "upsell",
      "attempt",
      "tickets",
      "address.country",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(field, fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom("on", "5000", "MONTH", "ACCEPTED"))),
        async (form) => {
          const page = await donatePage(org.slug, appeal.slug, { form });
          expect([200, 303]).toContain(page.status);
          if (page.status === 200) expect(page.html).toContain("Warm coats");
        },
      ),
      { numRuns: 25 },
    );
  });
});
