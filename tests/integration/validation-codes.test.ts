/**
 * Validation errors carry machine-readable `details.codes` beside the unchanged messages, through
 * the real route handlers: zod's issue codes for the request's shape, the product's own codes for
 * a campaign's rules, and domain errors answered with their status and message.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { patch, post, randomIp, type ApiResponse, type TestUser } from "../helpers/api";
import { activeCampaign, activeOrgAndCampaign, randomEmail, type Campaign, type Org } from "../helpers/records";

let owner: TestUser;
let org: Org;
let campaign: Campaign;

beforeAll(async () => {
  ({ owner, org, campaign } = await activeOrgAndCampaign());
});

const gift = (campaignId: string, extra: Record<string, unknown> = {}) => ({ campaignId, amount: 2500, email: randomEmail(), ...extra });
const donate = (body: Record<string, unknown>) => post("/api/donations", body, { ip: randomIp() });

function expectCodes(res: ApiResponse, field: string, message: string, codes: unknown[]) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error).toBe("Validation failed");
  expect(res.body.details.fieldErrors[field]).toEqual([message]);
  expect(res.body.details.codes[field]).toEqual(codes);
}

describe("POST /api/donations validation codes", () => {
  it("an amount below 100 is too_small with its minimum", async () => {
    const res = await donate(gift(campaign.id, { amount: 50 }));
    expectCodes(res, "amount", "Number must be greater than or equal to 100", [
      { code: "too_small", origin: "number", minimum: 100, inclusive: true },
    ]);
    expect(res.body.details.formErrors).toEqual([]);
    expect(Object.keys(res.body.details).sort()).toEqual(["codes", "fieldErrors", "formErrors"]);
  });

  it("a missing email is invalid_type, a wrong one invalid_format", async () => {
    const missing = await donate({ campaignId: campaign.id, amount: 2500 });
    expectCodes(missing, "email", "Required", [{ code: "invalid_type", expected: "string" }]);
    const wrong = await donate(gift(campaign.id, { email: "nobody" }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.codes.email).toEqual([expect.objectContaining({ code: "invalid_format", format: "email" })]);
  });

  it("an amount below the campaign's minimum is amount_below_minimum with its minimum", async () => {
    const strict = await activeCampaign(org, owner, { title: "Big gifts", minAmountCents: 1000 });
    const res = await donate(gift(strict.id, { amount: 500 }));
    expectCodes(res, "amount", "Number must be greater than or equal to 1000", [{ code: "amount_below_minimum", minimum: 1000 }]);
  });

  it("an amount outside the suggested ones is not_a_suggested_amount with the values", async () => {
    const fixed = await activeCampaign(org, owner, { title: "Fixed", allowCustomAmount: false, suggestedAmounts: [1000, 2500] });
    const res = await donate(gift(fixed.id, { amount: 1500 }));
    expectCodes(res, "amount", "Choose one of the suggested amounts: 1000, 2500", [
      { code: "not_a_suggested_amount", values: [1000, 2500] },
    ]);
  });

  it("tickets over the per-order limit are tickets_over_limit with the maximum; none are tickets_required", async () => {
    const gala = await activeCampaign(org, owner, {
      title: "Gala",
      type: "EVENT",
      ticketPriceCents: 1000,
      ticketCapacity: 50,
      maxTicketsPerOrder: 4,
    });
    const over = await donate(gift(gala.id, { amount: 5000, tickets: 5 }));
    expectCodes(over, "tickets", "At most 4 tickets per order", [{ code: "tickets_over_limit", maximum: 4 }]);
    const none = await donate(gift(gala.id, { amount: 1000 }));
    expectCodes(none, "tickets", "Required for event tickets", [{ code: "tickets_required" }]);
  });

  it("several failing rules each get their code under their field", async () => {
    const res = await donate(gift(campaign.id, { currency: "eur", tickets: 2 }));
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.codes).toEqual({
      currency: [{ code: "currency_not_accepted", values: [org.currency] }],
      tickets: [{ code: "tickets_not_sold" }],
    });
  });

  describe("with Turnstile configured", () => {
    afterEach(() => {
      delete process.env.TURNSTILE_SECRET_KEY;
      resetEnv();
    });

    it("a missing captchaToken is captcha_required", async () => {
      process.env.TURNSTILE_SECRET_KEY = "1x0000000000000000000000000000000AA";
      resetEnv();
      const res = await donate(gift(campaign.id));
      expectCodes(res, "captchaToken", "Complete the verification challenge to continue", [{ code: "captcha_required" }]);
    });
  });
});

describe("campaign rules codes", () => {
  it("POST /api/orgs/:idOrSlug/campaigns reports each cross-field rule with its code", async () => {
    const res = await post(
      `/api/orgs/${org.id}/campaigns`,
      {
        title: "No price",
        type: "EVENT",
        allowCustomAmount: false,
        suggestedAmounts: [],
        startDate: "2030-02-01T00:00:00Z",
        endDate: "2030-01-01T00:00:00Z",
      },
      { token: owner.token },
    );
    expect(res.status, res.text).toBe(400);
    expect(res.body.details.fieldErrors.ticketPriceCents).toEqual(["Required for EVENT campaigns"]);
    expect(res.body.details.codes).toMatchObject({
      endDate: [{ code: "end_not_after_start", after: "startDate" }],
      ticketPriceCents: [{ code: "required_for_event" }],
      ticketCapacity: [{ code: "required_for_event" }],
      suggestedAmounts: [{ code: "suggested_amounts_required" }],
    });
  });
});

describe("domain errors over HTTP", () => {
  it("a DRAFT campaign is 404 Campaign not found; a PAUSED one 409, bodies unchanged", async () => {
    const draft = await activeCampaign(org, owner, { title: "Draft", status: "DRAFT" });
    const missing = await donate(gift(draft.id));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: "Campaign not found", status: 404 });
    const paused = await activeCampaign(org, owner, { title: "Paused" });
    expect((await patch(`/api/campaigns/${paused.id}`, { status: "PAUSED" }, { token: owner.token })).status).toBe(200);
    const refused = await donate(gift(paused.id));
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: "Campaign is not accepting donations", status: 409 });
  });

  it("an impossible status change is 409 with its message", async () => {
    const ended = await activeCampaign(org, owner, { title: "Ended" });
    expect((await patch(`/api/campaigns/${ended.id}`, { status: "ENDED" }, { token: owner.token })).status).toBe(200);
    const res = await patch(`/api/campaigns/${ended.id}`, { status: "ACTIVE" }, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Cannot change campaign status from ENDED to ACTIVE", status: 409 });
  });
});
