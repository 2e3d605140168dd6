import { execFileSync } from "node:child_process";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { get, patch, post, randomIp, routeHandlers, serverClientIpHeaders } from "../helpers/api";
import {
  activeOrgAndCampaign,
  donorSessionCookieFor,
  insertDonor,
  memberOf,
  outsider,
  paidDonation,
  randomEmail,
  type Org,
} from "../helpers/records";

const YEAR = new Date().getUTCFullYear() - 1;

/** The text of a PDF as poppler's pdftotext reads it, spaces collapsed. */
const pdfToText = (pdf: Uint8Array) =>
  execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf })
    .toString("utf8")
    .replace(/[ \t]+/g, " ");

/** GET /api/donations/:id/receipt.pdf through the route's handler, as bytes. */
async function receipt(donationId: string, token?: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const route = await routeHandlers("/api/donations/[id]/receipt.pdf");
  const headers: Record<string, string> = { ...serverClientIpHeaders(randomIp()), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const req = new NextRequest(`http://localhost:3000/api/donations/${donationId}/receipt.pdf`, { headers });
  const res = await route.GET(req, { params: Promise.resolve({ id: donationId }) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function orgWithProfile(profile: "US" | "CA" | "UK" | "GENERIC", extra: Record<string, unknown> = {}) {
  const setup = await activeOrgAndCampaign();
  const res = await patch(
    `/api/orgs/${setup.org.id}`,
    {
      receiptProfile: profile,
      legalName: "Maple Relief Society",
      taxId: "123456789RR0001",
      address: "12 Elm Street\nToronto ON M5V 2T6",
      ...extra,
    },
    { token: setup.owner.token },
  );
  expect(res.status, res.text).toBe(200);
  expect(res.body.receiptProfile).toBe(profile);
  return setup;
}

async function offline(org: Org, token: string, campaignId: string, extra: Record<string, unknown> = {}) {
  const res = await post(
    `/api/orgs/${org.id}/offline-gifts`,
    {
      campaignId,
      amount: 15_000,
      receivedAt: `${YEAR}-06-15`,
      method: "CHEQUE",
      reference: "Cheque 88",
      donor: {
        email: randomEmail(),
        firstName: "Jean",
        lastName: "Tremblay",
        address: { line1: "400 Rue Sainte-Catherine", city: "Montréal", region: "QC", postalCode: "H3B 1A7", country: "ca" },
      },
      ...extra,
    },
    { token },
  );
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("GET /api/donations/:id/receipt.pdf", () => {
  it("GET /api/donations/:id/receipt.pdf (CA) is an official receipt with every field CRA requires", async () => {
    const { owner, org, campaign } = await orgWithProfile("CA", { receiptSignatory: "Marie Gagnon, Treasurer" });
    const gift = await offline(org, owner.token, campaign.id, { advantageCents: 5_000 });
    const res = await receipt(gift.id, owner.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain(`receipt-${org.slug}-${gift.receiptNumber}.pdf`);
    const text = pdfToText(res.bytes);
    for (const expected of [
      "Official receipt for income tax purposes",
      `Receipt number ${gift.receiptNumber}`,
      "Date issued",
      "Location issued 12 Elm Street, Toronto ON M5V 2T6",
      `Date donation received June 15, ${YEAR}`,
      "Donor name Jean Tremblay",
      "Donor address 400 Rue Sainte-Catherine, Montréal QC H3B 1A7, CA",
      "Total amount of gift $150.00",
      "Value of advantage $50.00",
      "Eligible amount of gift for tax purposes $100.00",
      "Charity registration number 123456789RR0001",
      "Maple Relief Society",
      "Authorized signature: Marie Gagnon, Treasurer",
      "canada.ca/charities-giving",
    ]) {
      expect(text, text).toContain(expected);
    }
  });

  it("GET /api/donations/:id/receipt.pdf (US) states the quid-pro-quo values with an advantage, and that none were provided without", async () => {
    const { owner, org, campaign } = await orgWithProfile("US", { taxId: "12-3456789" });
    const withAdvantage = pdfToText(
      (await receipt((await offline(org, owner.token, campaign.id, { advantageCents: 4_000 })).id, owner.token)).bytes,
    );
    expect(withAdvantage).toContain("Value of goods or services provided $40.00");
    expect(withAdvantage).toContain("Deductible amount $110.00");
    expect(withAdvantage).toMatch(/goods or services valued at \$40\.00/);
    expect(withAdvantage).toContain("EIN 12-3456789");
    const card = await paidDonation(campaign.id);
    const without = pdfToText((await receipt(card.id, owner.token)).bytes);
    expect(without).toContain("No goods or services were provided in exchange for this contribution.");
    expect(without).toContain(card.receiptNumber);
    expect(without).toContain("Payment method Card");
  });

  it("GET /api/donations/:id/receipt.pdf (UK and GENERIC) prints the gift, the charity number and Gift Aid", async () => {
    const uk = await orgWithProfile("UK", { taxId: "1234567" });
    const ukText = pdfToText((await receipt((await offline(uk.org, uk.owner.token, uk.campaign.id)).id, uk.owner.token)).bytes);
    expect(ukText).toContain("Donation receipt");
    expect(ukText).toContain("Registered charity number 1234567");
    expect(ukText).toContain("Gift Aid Not declared");
    const generic = await orgWithProfile("GENERIC", { taxId: "X-99", receiptStatement: "Thank you for standing with us." });
    const gText = pdfToText(
      (await receipt((await offline(generic.org, generic.owner.token, generic.campaign.id)).id, generic.owner.token)).bytes,
    );
    expect(gText).toContain("Donation receipt");
    expect(gText).toContain("Tax ID X-99");
    expect(gText).toContain("Thank you for standing with us.");
    expect(gText).toContain("Reference Cheque 88");
  });

  it("GET /api/donations/:id/receipt.pdf of a voided gift says VOID and keeps the number", async () => {
    const { owner, org, campaign } = await orgWithProfile("CA");
    const gift = await offline(org, owner.token, campaign.id);
    await post(`/api/donations/${gift.id}/void`, { reason: "Bounced" }, { token: owner.token });
    const text = pdfToText((await receipt(gift.id, owner.token)).bytes);
    expect(text).toContain("VOID");
    expect(text).toContain(gift.receiptNumber);
  });

  it("GET /api/donations/:id/receipt.pdf answers 401, 403 to a non-member, 404 for an unknown gift and one without a receipt; a MEMBER may read it", async () => {
    const { owner, org, campaign } = await orgWithProfile("US");
    const gift = await offline(org, owner.token, campaign.id);
    expect((await receipt(gift.id)).status).toBe(401);
    expect((await receipt(gift.id, (await outsider()).token)).status).toBe(403);
    expect((await receipt("don_unknown0000000000", owner.token)).status).toBe(404);
    const member = await memberOf(org, owner, "MEMBER");
    expect((await receipt(gift.id, member.token)).status).toBe(200);
    const pending = await post("/api/donations", { campaignId: campaign.id, amount: 2500, email: randomEmail() });
    expect((await receipt(pending.body.id, owner.token)).status).toBe(404);
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).body.receiptProfile).toBe("US");
  });
});

describe("Gift Aid", () => {
  const declaration = {
    title: "Ms",
    firstName: "Olivia",
    lastName: "Clark",
    houseNameOrNumber: "14",
    postcode: "sw1a 1aa",
    confirmed: true,
  };

  it("GET /api/orgs/:idOrSlug/gift-aid/claim lists the declared SUCCEEDED gifts in HMRC's column order; refunded and undeclared gifts are left out", async () => {
    const { owner, org, campaign } = await orgWithProfile("UK", { currency: "gbp" });
    const claimed = await paidDonation(campaign.id, { amount: 2500, giftAid: declaration });
    expect(claimed.giftAid).toBe(true);
    const refunded = await paidDonation(campaign.id, { amount: 4000, giftAid: { ...declaration, houseNameOrNumber: "The Old Mill" } });
    expect((await post(`/api/donations/${refunded.id}/refund`, undefined, { token: owner.token })).status).toBe(200);
    await paidDonation(campaign.id, { amount: 9900 });
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const res = await get(`/api/orgs/${org.id}/gift-aid/claim?from=${from}&to=${to}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const lines = res.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Title,First name or initial,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount",
    );
    const d = new Date(claimed.succeededAt);
    const day = `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCFullYear() % 100).padStart(2, "0")}`;
    expect(lines.slice(1)).toEqual([`Ms,Olivia,Clark,14,SW1A 1AA,,,${day},25.00`]);
  });

  it("POST /api/donations refuses a Gift Aid declaration outside the UK profile and requires the address for CA (400)", async () => {
    const us = await orgWithProfile("US");
    const gift = await post("/api/donations", { campaignId: us.campaign.id, amount: 2500, email: randomEmail(), giftAid: declaration });
    expect(gift.status).toBe(400);
    expect(gift.body.details.fieldErrors.giftAid).toBeDefined();
    const ca = await orgWithProfile("CA");
    const noAddress = await post("/api/donations", { campaignId: ca.campaign.id, amount: 2500, email: randomEmail() });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.details.fieldErrors.address).toEqual(["Your postal address is required for this gift"]);
    // A CA campaign that also asks for the address says it once.
    const asks = await patch(`/api/campaigns/${ca.campaign.id}`, { collectAddress: true }, { token: ca.owner.token });
    expect(asks.status, asks.text).toBe(200);
    const once = await post("/api/donations", { campaignId: ca.campaign.id, amount: 2500, email: randomEmail() });
    expect(once.body.details.codes.address).toHaveLength(1);
    const withAddress = await post("/api/donations", {
      campaignId: ca.campaign.id,
      amount: 2500,
      email: randomEmail(),
      address: { line1: "1 Main St", city: "Halifax", region: "NS", postalCode: "B3H 1A1", country: "CA" },
    });
    expect(withAddress.status, withAddress.text).toBe(201);
    const uk = await orgWithProfile("UK");
    const unconfirmed = await post("/api/donations", {
      campaignId: uk.campaign.id,
      amount: 2500,
      email: randomEmail(),
      giftAid: { ...declaration, confirmed: false },
    });
    expect(unconfirmed.status).toBe(400);
  });

  it("GET /api/orgs/:idOrSlug/gift-aid/claim answers 400 without from/to, 401, 403 to a MEMBER and a non-member", async () => {
    const { owner, org } = await orgWithProfile("UK");
    expect((await get(`/api/orgs/${org.id}/gift-aid/claim`, { token: owner.token })).status).toBe(400);
    const q = "from=2025-01-01T00:00:00Z&to=2025-12-31T00:00:00Z";
    expect((await get(`/api/orgs/${org.id}/gift-aid/claim?${q}`)).status).toBe(401);
    expect((await get(`/api/orgs/${org.id}/gift-aid/claim?${q}`, { token: (await outsider()).token })).status).toBe(403);
    expect((await get(`/api/orgs/${org.id}/gift-aid/claim?${q}`, { token: (await memberOf(org, owner, "MEMBER")).token })).status).toBe(
      403,
    );
  });
});

/** GET /api/donor/orgs/:orgSlug/donations/:id/receipt.pdf through the route's handler, as bytes, with a donor cookie. */
async function donorReceipt(org: Org, donationId: string, cookie?: string) {
  const route = await routeHandlers("/api/donor/orgs/[orgSlug]/donations/[id]/receipt.pdf");
  const headers: Record<string, string> = { ...serverClientIpHeaders(randomIp()), ...(cookie ? { cookie } : {}) };
  const req = new NextRequest(`http://localhost:3000/api/donor/orgs/${org.slug}/donations/${donationId}/receipt.pdf`, { headers });
  const res = await route.GET(req, {
    params: Promise.resolve({ orgSlug: org.slug, id: donationId }),
  });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe("GET /api/donor/orgs/:orgSlug/donations/:id/receipt.pdf", () => {
  it("gives the signed-in donor the receipt of their own gift, the same the account lists; 404 for anyone else's, 401 without the cookie", async () => {
    const { owner, org, campaign } = await orgWithProfile("US");
    const gift = await offline(org, owner.token, campaign.id);
    const own = await donorSessionCookieFor(gift.donorId, org.id);
    const res = await donorReceipt(org, gift.id, own);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-disposition")).toContain(`receipt-${org.slug}-${gift.receiptNumber}.pdf`);
    expect(pdfToText(res.bytes)).toContain(gift.receiptNumber);

    // The account's list links it.
    const list = await get(`/api/donor/orgs/${org.slug}/donations`, { headers: { cookie: own } });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([
      expect.objectContaining({
        id: gift.id,
        receiptNumber: gift.receiptNumber,
        receiptPdfPath: `/api/donor/orgs/${org.slug}/donations/${gift.id}/receipt.pdf`,
      }),
    ]);

    const someoneElse = await insertDonor(org.id);
    const theirs = await donorReceipt(org, gift.id, await donorSessionCookieFor(someoneElse.id, org.id));
    expect(theirs.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(theirs.bytes))).toEqual({ error: "Receipt not found", status: 404 });
    expect((await donorReceipt(org, "don_nosuchgift", own)).status).toBe(404);
    expect((await donorReceipt(org, gift.id)).status).toBe(401);
  });
});
