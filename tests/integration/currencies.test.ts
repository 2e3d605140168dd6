/**
 * An organization's currency end to end, through the real routes: a Japanese-yen organization
 * (zero decimals) takes a ¥5,000 gift in sandbox mode and every place agrees (the donation, the
 * receipt email, the CSV export, the reports, the donate page); the same gift in Stripe mode asks
 * the processor (a local fake Stripe API, as in donations-stripe-mode.test.ts) for 5000 jpy; the
 * minimum gift per currency; and the currency locked once the organization has taken a donation.
 */
import { parse } from "csv-parse/sync";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { outbox } from "@/db/schema";
import { donateFormSchema } from "@/components/donate/donate-schema";
import { renderEmail } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";
import type { AppError } from "@/lib/errors";
import { assertAmountFitsCampaign } from "@/lib/services/recurring-plans/change-plan-amount";
import { get, patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { customGift, formCampaign } from "../helpers/donate-form";
import { newCustomer, newPaymentIntent, newProduct, newSubscription, ok, unrecognized, useFakeStripe } from "../helpers/fake-stripe";
import { donatePage } from "../helpers/donate-page";
import { activeCampaign, activeOrg, pay, randomEmail, startDonation, type Campaign, type Org } from "../helpers/records";

// The donate page reads the request's headers (a shed, light render); rendered here outside a
// request, it gets an ordinary request's: none of them.
vi.mock("next/headers", async (original) => ({ ...(await original<typeof import("next/headers")>()), headers: async () => new Headers() }));

const parseCsv = (text: string) =>
  parse(text, { bom: true, columns: true, record_delimiter: "\r\n", skip_empty_lines: false }) as Record<string, string>[];

/** The organization's queued emails of one template. */
async function queued(orgId: string, template: string) {
  const db = await testDb();
  const rows = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.orgId, orgId), eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = ${template}`));
  return rows.map((r) => r.payload as EmailMessage<"receipt">);
}

let owner: TestUser;
let org: Org;
let campaign: Campaign;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  expect(org.currency).toBe("usd");
  // Set to yen before any donation: allowed, and stored in lower case like every currency.
  const res = await patch(`/api/orgs/${org.id}`, { currency: "JPY" }, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.currency).toBe("jpy");
  org = res.body;
  campaign = await activeCampaign(org, owner, { title: "Sakura fund", suggestedAmounts: [1000, 5000, 10000] });
});

describe("a jpy organization, end to end in sandbox mode", () => {
  it("POST /api/donations takes ¥5,000 as 5000 jpy; the receipt, the CSV export and the reports say the same", async () => {
    const email = randomEmail("kenji");
    const started = await startDonation(campaign.id, { amount: 5000, email, firstName: "Kenji", lastName: "Sato" });
    expect(started).toMatchObject({ amount: 5000, currency: "jpy", chargeAmountCents: 5000 });
    const paid = await pay(started.clientSecret);
    expect(paid).toMatchObject({ status: "SUCCEEDED", amount: 5000, currency: "jpy" });

    // The receipt: ¥5,000, never ¥50 nor ¥5,000.00.
    const [receipt] = (await queued(org.id, "receipt")).filter((m) => m.to === email);
    expect(receipt.props).toMatchObject({ amountCents: 5000, currency: "jpy" });
    const rendered = await renderEmail(receipt);
    expect(rendered.subject).toContain("¥5,000");
    expect(rendered.html).toContain("¥5,000");
    expect(rendered.text).toContain("¥5,000");
    expect(`${rendered.subject} ${rendered.text}`).not.toMatch(/¥5,000\.|¥50(?!,)/);

    // The CSV: whole yen in both amount columns.
    const csv = await get(`/api/orgs/${org.id}/donations/export`, { token: owner.token });
    expect(csv.status, csv.text).toBe(200);
    const [row] = parseCsv(csv.text).filter((r) => r.email === email);
    expect(row).toMatchObject({ amount: "5000", amountCents: "5000", currency: "jpy" });

    // The reports: totals in yen, and they say so.
    const summary = await get(`/api/orgs/${org.id}/reports/summary`, { token: owner.token });
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body).toMatchObject({ currency: "jpy", raisedCents: 5000, count: 1, averageGiftCents: 5000 });
    const series = await get(`/api/orgs/${org.id}/reports/timeseries?interval=day`, { token: owner.token });
    expect(series.status, series.text).toBe(200);
    expect(series.body.currency).toBe("jpy");
    expect(series.body.buckets.reduce((s: number, b: { raisedCents: number }) => s + b.raisedCents, 0)).toBe(5000);
    const byCampaign = await get(`/api/orgs/${org.id}/reports/campaigns`, { token: owner.token });
    expect(byCampaign.body.currency).toBe("jpy");
    expect(byCampaign.body.data.find((c: { campaignId: string }) => c.campaignId === campaign.id).raisedCents).toBe(5000);
  });

  it("GET /o/:orgSlug/donate/:slug shows yen without decimals and takes whole amounts", async () => {
    const { html } = await donatePage(org.slug, campaign.slug);
    for (const amount of ["¥1,000", "¥5,000", "¥10,000"]) expect(html).toContain(amount);
    expect(html).not.toMatch(/¥[\d,]+\.\d/);
    expect(html).not.toContain("$");
    // The custom amount: the yen sign, a numeric keypad, a whole-number placeholder, the minimum in yen.
    expect(html).toMatch(/aria-hidden="true">¥<\/span>/);
    expect(html).toMatch(/inputMode="numeric"[^>]*placeholder="0"|placeholder="0"[^>]*inputMode="numeric"/);
    expect(html).toContain("Minimum ¥100");
  });

  it("the donate form refuses a yen amount with decimals, with a message saying why", () => {
    const c = formCampaign({
      currency: "jpy",
      id: campaign.id,
      title: campaign.title,
      suggestedAmounts: [1000, 5000],
      minAmountCents: null,
    });
    const values = (custom: string) => customGift(c, custom, { firstName: "Kenji", lastName: "Sato", email: "kenji@example.org" });
    const check = (custom: string) =>
      donateFormSchema(c, values(custom), { captcha: false, captchaUnavailable: false }).safeParse(values(custom));
    const refused = check("5000.50");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["amount", "This currency has no decimals: enter a whole amount"],
    ]);
    const ok = check("¥5,000");
    expect(ok.success).toBe(true);
    expect(ok.data?.amount).toBe(5000);
  });

  it("POST /api/donations refuses a fractional amount (amounts are whole minor units) and a gift below ¥100", async () => {
    const fractional = await post("/api/donations", { campaignId: campaign.id, amount: 5000.5, email: randomEmail() });
    expect(fractional.status).toBe(400);
    expect(fractional.body).toMatchObject({ error: expect.any(String), status: 400 });
    expect(fractional.body.details.fieldErrors.amount).toHaveLength(1);
    const small = await post("/api/donations", { campaignId: campaign.id, amount: 99, email: randomEmail() });
    expect(small.status).toBe(400);
    expect(small.body.details.fieldErrors.amount).toEqual(["Number must be greater than or equal to 100"]);
    const wrongCurrency = await post("/api/donations", { campaignId: campaign.id, amount: 5000, currency: "usd", email: randomEmail() });
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.details.fieldErrors.currency).toEqual(["This campaign accepts jpy only"]);
  });
});

describe("the minimum gift per currency", () => {
  it("POST /api/donations in a three-decimal currency (bhd) needs one whole dinar, 1000 fils", async () => {
    const { owner: o, org: bhd } = await activeOrg({ currency: "bhd" });
    const c = await activeCampaign(bhd, o, { suggestedAmounts: [5000, 10000] });
    const small = await post("/api/donations", { campaignId: c.id, amount: 999, email: randomEmail() });
    expect(small.status, small.text).toBe(400);
    expect(small.body.details.fieldErrors.amount).toEqual(["Number must be greater than or equal to 1000"]);
    expect(small.body.details.codes.amount).toEqual([{ code: "amount_below_minimum", minimum: 1000 }]);
    const enough = await startDonation(c.id, { amount: 1000 });
    expect(enough).toMatchObject({ amount: 1000, currency: "bhd" });
  });

  it("a recurring plan's new amount follows the same minimum: one dinar, ¥100, or the campaign's own", () => {
    const open = { minAmountCents: null, allowCustomAmount: true, suggestedAmounts: [] };
    const codes = (amount: number, currency: string, campaign: typeof open | { minAmountCents: number } = open) => {
      try {
        assertAmountFitsCampaign(amount, { ...open, ...campaign }, currency);
        return [];
      } catch (err) {
        return (err as AppError).details?.codes?.amount ?? [];
      }
    };
    expect(codes(999, "bhd")).toEqual([{ code: "amount_below_minimum", minimum: 1000 }]);
    expect(codes(1000, "bhd")).toEqual([]);
    expect(codes(100, "jpy")).toEqual([]);
    expect(codes(100, "usd", { minAmountCents: 500 })).toEqual([{ code: "amount_below_minimum", minimum: 500 }]);
  });
});

describe("PATCH /api/orgs/:idOrSlug currency", () => {
  it("is refused with 409 once the organization has taken a donation, whatever its status", async () => {
    const { owner: o, org: fresh } = await activeOrg();
    const c = await activeCampaign(fresh, o);
    // A started, unpaid donation is enough: its amount is already in dollars' cents.
    await startDonation(c.id, { amount: 2500 });
    const res = await patch(`/api/orgs/${fresh.id}`, { currency: "eur" }, { token: o.token });
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({ error: "This organization has taken donations in USD; its currency can no longer change", status: 409 });
    const after = await get(`/api/orgs/${fresh.id}`, { token: o.token });
    expect(after.body.currency).toBe("usd");
    // Naming the same currency, or changing anything else, still works.
    const same = await patch(`/api/orgs/${fresh.id}`, { currency: "USD", name: "Renamed" }, { token: o.token });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toMatchObject({ currency: "usd", name: "Renamed" });
  });

  it("the yen organization above can no longer go back to dollars", async () => {
    const res = await patch(`/api/orgs/${org.slug}`, { currency: "usd" }, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("This organization has taken donations in JPY; its currency can no longer change");
  });
});

// ---------------------------------------------------------------------------------------------
// Stripe mode: what the real Stripe SDK sends for a yen gift, recorded by a local fake Stripe API.

describe("a jpy gift in Stripe mode", () => {
  const { requests, sent } = useFakeStripe(
    (rec) => {
      switch (`${rec.method} ${rec.path}`) {
        case "POST /v1/payment_intents":
          return ok(newPaymentIntent(rec.form));
        case "POST /v1/products":
          return ok(newProduct(rec.form));
        case "POST /v1/customers":
          return ok(newCustomer(rec.form));
        case "POST /v1/subscriptions":
          return ok(newSubscription(rec.form));
        default:
          return unrecognized(rec);
      }
    },
    { env: { PAYMENTS_MODE: "stripe", PLATFORM_FEE_BPS: undefined } },
  );

  it("POST /api/donations asks Stripe for a PaymentIntent of 5000 jpy (minor units, never × 100)", async () => {
    const started = await startDonation(campaign.id, { amount: 5000 });
    expect(started).toMatchObject({ amount: 5000, currency: "jpy", chargeAmountCents: 5000 });
    const intents = sent("POST", "/v1/payment_intents");
    expect(intents).toHaveLength(1);
    expect(intents[0].form.get("amount")).toBe("5000");
    expect(intents[0].form.get("currency")).toBe("jpy");
  });

  it("POST /api/donations for a monthly gift asks for a subscription priced 5000 jpy", async () => {
    requests.length = 0;
    const started = await startDonation(campaign.id, { amount: 5000, recurringInterval: "MONTH" });
    expect(started).toMatchObject({ amount: 5000, currency: "jpy", recurringInterval: "MONTH" });
    const subscriptions = sent("POST", "/v1/subscriptions");
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0].form.get("items[0][price_data][unit_amount]")).toBe("5000");
    expect(subscriptions[0].form.get("items[0][price_data][currency]")).toBe("jpy");
  });
});
