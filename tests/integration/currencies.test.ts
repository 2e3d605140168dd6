/**
 * An organization's currency end to end, through the real routes: a Japanese-yen organization
 * (zero decimals) takes a ¥5,000 gift in sandbox mode and every place agrees (the donation, the
 * receipt email, the CSV export, the reports, the donate page); the same gift in Stripe mode asks
 * the processor (a local fake Stripe API, as in donations-stripe-mode.test.ts) for 5000 jpy; the
 * minimum gift per currency; and the currency locked once the organization has taken a donation.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "csv-parse/sync";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { outbox } from "@/db/schema";
import { donateFormSchema, initialValues } from "@/components/donate/donate-schema";
import type { DonateFormCampaign } from "@/components/donate/types";
import { renderEmail } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";
import { resetEnv } from "@/lib/env";
import type { AppError } from "@/lib/errors";
import { assertAmountFitsCampaign } from "@/lib/services/recurring-plans/change-plan-amount";
import { get, patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
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

/** The donate page's HTML as the server renders it (client components inside Next's router context). */
async function donatePageHtml(orgSlug: string, slug: string): Promise<string> {
  const { default: DonatePage } = await import("@/app/o/[orgSlug]/donate/[slug]/page");
  const { renderToStaticMarkup } = await import("react-dom/server");
  const { createElement } = await import("react");
  const { AppRouterContext } = await import("next/dist/shared/lib/app-router-context.shared-runtime");
  const page = await DonatePage({ params: Promise.resolve({ orgSlug, slug }) });
  const router = { refresh() {}, push() {}, replace() {}, back() {}, forward() {}, prefetch() {} };
  return renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router as never }, page));
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
    const html = await donatePageHtml(org.slug, campaign.slug);
    for (const amount of ["¥1,000", "¥5,000", "¥10,000"]) expect(html).toContain(amount);
    expect(html).not.toMatch(/¥[\d,]+\.\d/);
    expect(html).not.toContain("$");
    // The custom amount: the yen sign, a numeric keypad, a whole-number placeholder, the minimum in yen.
    expect(html).toMatch(/aria-hidden="true">¥<\/span>/);
    expect(html).toMatch(/inputMode="numeric"[^>]*placeholder="0"|placeholder="0"[^>]*inputMode="numeric"/);
    expect(html).toContain("Minimum ¥100");
  });

  it("the donate form refuses a yen amount with decimals, with a message saying why", () => {
    const c: DonateFormCampaign = {
      currency: "jpy",
      id: campaign.id,
      title: campaign.title,
      type: "DONATION",
      suggestedAmounts: [1000, 5000],
      allowCustomAmount: true,
      allowRecurring: true,
      minAmountCents: null,
      ticketPriceCents: null,
      ticketCapacity: null,
      ticketsSold: 0,
      maxTicketsPerOrder: 10,
      matchingEnabled: false,
      matchingOrgName: null,
      matchingRatioPct: 100,
      showDonorRoll: true,
    };
    const values = (custom: string) => ({
      ...initialValues(c),
      amount: { choice: "custom", custom },
      firstName: "Kenji",
      lastName: "Sato",
      email: "kenji@example.org",
    });
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
  type Recorded = { method: string; path: string; form: URLSearchParams };
  const requests: Recorded[] = [];
  const saved: Record<string, string | undefined> = {};
  let server: Server;
  const rand = () => randomBytes(8).toString("hex");

  function reply(rec: Recorded): unknown {
    const f = rec.form;
    switch (`${rec.method} ${rec.path}`) {
      case "POST /v1/payment_intents": {
        const id = `pi_${rand()}`;
        return {
          id,
          object: "payment_intent",
          amount: Number(f.get("amount")),
          currency: f.get("currency"),
          client_secret: `${id}_secret_${rand()}`,
          status: "requires_payment_method",
          latest_charge: null,
          livemode: false,
          metadata: { donationId: f.get("metadata[donationId]") },
        };
      }
      case "POST /v1/products":
        return { id: `prod_${rand()}`, object: "product", name: f.get("name"), active: true, metadata: {} };
      case "POST /v1/customers":
        return { id: `cus_${rand()}`, object: "customer", email: f.get("email"), metadata: {} };
      case "POST /v1/subscriptions": {
        const invoice = `in_${rand()}`;
        const pi = `pi_${rand()}`;
        return {
          id: `sub_${rand()}`,
          object: "subscription",
          status: "incomplete",
          metadata: { donationId: f.get("metadata[donationId]") },
          latest_invoice: {
            id: invoice,
            object: "invoice",
            status: "open",
            billing_reason: "subscription_create",
            amount_due: Number(f.get("items[0][price_data][unit_amount]")),
            confirmation_secret: { client_secret: `${pi}_secret_${rand()}`, type: "payment_intent" },
            payments: {
              object: "list",
              has_more: false,
              data: [
                {
                  id: `inpay_${rand()}`,
                  object: "invoice_payment",
                  invoice,
                  is_default: true,
                  status: "open",
                  payment: { type: "payment_intent", payment_intent: pi },
                },
              ],
            },
          },
        };
      }
      default:
        return null;
    }
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://fake");
        const rec = { method: req.method ?? "", path: url.pathname, form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")) };
        requests.push(rec);
        const body = reply(rec);
        res.writeHead(body ? 200 : 404, { "Content-Type": "application/json", "Request-Id": `req_${rand()}` });
        res.end(JSON.stringify(body ?? { error: { type: "invalid_request_error", message: `Unrecognized request URL (${rec.path})` } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    for (const k of ["STRIPE_SECRET_KEY", "STRIPE_API_HOST", "PLATFORM_FEE_BPS", "PAYMENTS_MODE"]) saved[k] = process.env[k];
    process.env.PAYMENTS_MODE = "stripe";
    process.env.STRIPE_SECRET_KEY = "sk_test_goodfund";
    process.env.STRIPE_API_HOST = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    delete process.env.PLATFORM_FEE_BPS;
    resetEnv();
  });

  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("POST /api/donations asks Stripe for a PaymentIntent of 5000 jpy (minor units, never × 100)", async () => {
    const started = await startDonation(campaign.id, { amount: 5000 });
    expect(started).toMatchObject({ amount: 5000, currency: "jpy", chargeAmountCents: 5000 });
    const sent = requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");
    expect(sent).toHaveLength(1);
    expect(sent[0].form.get("amount")).toBe("5000");
    expect(sent[0].form.get("currency")).toBe("jpy");
  });

  it("POST /api/donations for a monthly gift asks for a subscription priced 5000 jpy", async () => {
    requests.length = 0;
    const started = await startDonation(campaign.id, { amount: 5000, recurringInterval: "MONTH" });
    expect(started).toMatchObject({ amount: 5000, currency: "jpy", recurringInterval: "MONTH" });
    const sent = requests.filter((r) => r.method === "POST" && r.path === "/v1/subscriptions");
    expect(sent).toHaveLength(1);
    expect(sent[0].form.get("items[0][price_data][unit_amount]")).toBe("5000");
    expect(sent[0].form.get("items[0][price_data][currency]")).toBe("jpy");
  });
});
