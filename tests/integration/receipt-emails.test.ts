import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { patch, post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { activeOrgAndCampaign, paidDonation, randomEmail, type Org } from "../helpers/records";

const pdfToText = (pdf: Uint8Array) =>
  execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf })
    .toString("utf8")
    .replace(/[ \t]+/g, " ");

// A local stand-in for Resend's API: the worker sends receipts to it, as it would to Resend.
const requests: { body: Record<string, any> }[] = [];
let server: Server;
const saved = { key: process.env.RESEND_API_KEY, url: process.env.RESEND_BASE_URL };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `re_${requests.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.RESEND_API_KEY = "re_test_receipt_emails";
  process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetEnv();
});
afterEach(() => {
  requests.length = 0;
});
afterAll(async () => {
  for (const [k, v] of [
    ["RESEND_API_KEY", saved.key],
    ["RESEND_BASE_URL", saved.url],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
  await new Promise((r) => server.close(r));
});

async function orgWithProfile(profile: "US" | "CA" | "UK" | "GENERIC") {
  const setup = await activeOrgAndCampaign();
  const res = await patch(
    `/api/orgs/${setup.org.id}`,
    { receiptProfile: profile, legalName: "Maple Relief Society", taxId: "123456789RR0001", address: "12 Elm Street\nToronto ON M5V 2T6" },
    { token: setup.owner.token },
  );
  expect(res.status, res.text).toBe(200);
  return setup;
}

/** A cheque recorded with `sendReceipt`, by a donor with an email and an address. */
async function cheque(org: Org, token: string, campaignId: string, email: string, extra: Record<string, unknown> = {}) {
  const res = await post(
    `/api/orgs/${org.id}/offline-gifts`,
    {
      campaignId,
      amount: 15_000,
      receivedAt: new Date().toISOString().slice(0, 10),
      method: "CHEQUE",
      reference: "Cheque 88",
      sendReceipt: true,
      donor: {
        email,
        firstName: "Jean",
        lastName: "Tremblay",
        address: { line1: "400 Rue Sainte-Catherine", city: "Montréal", region: "QC", postalCode: "H3B 1A7", country: "CA" },
      },
      ...extra,
    },
    { token },
  );
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The receipt the worker sent to `email` through the Resend stand-in. */
async function sentReceipt(orgId: string, email: string) {
  await runWorkerOnce(await testDb(), { orgIds: [orgId] });
  const sent = requests.filter((r) => [r.body.to].flat().includes(email));
  expect(sent, JSON.stringify(requests.map((r) => r.body.subject))).toHaveLength(1);
  return sent[0].body;
}

describe("the receipt email follows the organization's receipt profile", () => {
  it("CA: the official receipt PDF (CRA's fields) is attached and the email says so", async () => {
    const { org, owner, campaign } = await orgWithProfile("CA");
    const email = randomEmail("ca-receipt");
    const gift = await cheque(org, owner.token, campaign.id, email, { advantageCents: 5_000 });
    const body = await sentReceipt(org.id, email);
    expect(body.subject).toContain("Your official receipt for $150.00");
    expect(body.text).toContain(`Receipt number: ${gift.receiptNumber}`);
    expect(body.text).toContain(`Your official receipt for income tax purposes, number ${gift.receiptNumber}, is attached`);
    expect(body.text).toContain("Eligible amount of gift for tax purposes: $100.00");
    expect(body.text).not.toContain("No goods or services");
    expect(body.attachments).toHaveLength(1);
    expect(body.attachments[0].filename).toBe(`receipt-${org.slug}-${gift.receiptNumber}.pdf`);
    const attached = Buffer.from(body.attachments[0].content, "base64");
    const text = pdfToText(attached);
    expect(text).toContain("Official receipt for income tax purposes");
    expect(text).toContain(`Receipt number ${gift.receiptNumber}`);
    expect(text).toContain("Eligible amount of gift for tax purposes $100.00");
  });

  it("US: the goods-or-services statement with the deductible amount, and no attachment", async () => {
    const { org, owner, campaign } = await orgWithProfile("US");
    const email = randomEmail("us-receipt");
    const gift = await cheque(org, owner.token, campaign.id, email, { advantageCents: 4_000 });
    const body = await sentReceipt(org.id, email);
    expect(body.subject).toContain("Your receipt for $150.00");
    expect(body.text).toContain(`Receipt number: ${gift.receiptNumber}`);
    expect(body.text).toContain("you received goods or services valued at $40.00");
    expect(body.text).toContain("limited to the excess of your contribution over that value: $110.00");
    expect(body.attachments).toBeUndefined();

    const plain = randomEmail("us-plain");
    await cheque(org, owner.token, campaign.id, plain);
    expect((await sentReceipt(org.id, plain)).text).toContain("No goods or services were provided in exchange for this contribution.");
  });

  it("UK: thanks for the Gift Aid declaration given on the donate form, without the US statement", async () => {
    const { org, campaign } = await orgWithProfile("UK");
    const email = randomEmail("uk-receipt");
    await paidDonation(campaign.id, {
      email,
      firstName: "Olivia",
      lastName: "Clark",
      giftAid: { title: "Ms", firstName: "Olivia", lastName: "Clark", houseNameOrNumber: "14", postcode: "SW1A 1AA", confirmed: true },
    });
    const body = await sentReceipt(org.id, email);
    expect(body.text).toContain("Thank you for your Gift Aid declaration: Maple Relief Society will reclaim 25p");
    expect(body.text).not.toContain("No goods or services");
    expect(body.attachments).toBeUndefined();
  });

  it("GENERIC: the gift and its receipt number only", async () => {
    const { org, owner, campaign } = await orgWithProfile("GENERIC");
    const email = randomEmail("generic-receipt");
    const gift = await cheque(org, owner.token, campaign.id, email);
    const body = await sentReceipt(org.id, email);
    expect(body.text).toContain(`Receipt number: ${gift.receiptNumber}`);
    expect(body.text).not.toContain("No goods or services");
    expect(body.text).not.toContain("Gift Aid");
    expect(body.attachments).toBeUndefined();
  });
});

describe("an event order's receipt email carries one QR code per ticket", () => {
  it("inline PNG attachments with a Content-ID, shown by cid: images in the HTML; the deductible amount is price − fair market value", async () => {
    const { org, owner } = await activeOrgAndCampaign();
    const created = await post(
      `/api/orgs/${org.id}/campaigns`,
      {
        title: "Gala dinner",
        type: "EVENT",
        status: "ACTIVE",
        ticketTiers: [
          { name: "General", priceCents: 5_000, capacity: 10, fairMarketValueCents: 2_000 },
          { name: "VIP", priceCents: 15_000, capacity: 4, fairMarketValueCents: 6_000 },
        ],
      },
      { token: owner.token },
    );
    expect(created.status, created.text).toBe(201);
    const [general, vip] = created.body.ticketTiers.map((t: { id: string }) => t.id);
    const email = randomEmail("gala");
    await paidDonation(created.body.id, {
      email,
      amount: 20_000,
      tickets: [
        { tierId: general, quantity: 1, attendees: [{ name: "Ada Lovelace" }] },
        { tierId: vip, quantity: 1, attendees: [{ name: "Charles Babbage" }] },
      ],
    });
    const body = await sentReceipt(org.id, email);
    expect(body.attachments).toHaveLength(2);
    for (const a of body.attachments) {
      expect(a.content_id).toMatch(/^ticket-[A-Z2-7]{24}@goodfund$/);
      expect(a.content_type).toBe("image/png");
      expect(Buffer.from(a.content, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");
      expect(body.html).toContain(`src="cid:${a.content_id}"`);
    }
    expect(body.text).toContain("Ada Lovelace");
    expect(body.text).toContain("Charles Babbage");
    expect(body.text).toContain("$80.00"); // goods or services: $20 + $60
    expect(body.text).toContain("$120.00"); // deductible: $200 − $80
  });
});
