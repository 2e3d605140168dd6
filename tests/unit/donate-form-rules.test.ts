import { describe, expect, test } from "vitest";
import { z } from "zod";
import { EMAIL_PATTERN, donateFormSchema, donationRequestBody, type DonateFormValues } from "@/components/donate/donate-schema";
import type { DonateFormCampaign } from "@/components/donate/types";
import { createDonationBody } from "@/lib/schemas/donations";
import { filled, formCampaign } from "../helpers/donate-form";

// The donate form checks a gift in the browser with its own rules and the API's limits
// (lib/schemas/donation-limits.ts), without zod or the API's schemas: here both judge the same
// gifts, and must agree on each of them.

const ctx = { captcha: false, captchaUnavailable: false };

/** [form accepts, API accepts] for one filled form. */
function verdicts(c: DonateFormCampaign, v: DonateFormValues): [boolean, boolean] {
  const form = donateFormSchema(c, v, ctx).safeParse(v).success;
  const api = createDonationBody.safeParse(donationRequestBody(v, c, false)).success;
  return [form, api];
}

const campaign = formCampaign({ minAmountCents: null });
const withAddress = formCampaign({ minAmountCents: null, collectAddress: true });
const uk = formCampaign({ minAmountCents: null, receiptProfile: "UK", currency: "gbp" });
const address = { line1: "1 Main St", line2: "", city: "Springfield", region: "", postalCode: "", country: "US" };

describe("the donate form's own check agrees with POST /api/donations's schema", () => {
  test("an email address is judged by the API's own pattern (zod's)", () => {
    expect(EMAIL_PATTERN.source).toBe(z.regexes.email.source);
    expect(EMAIL_PATTERN.flags).toBe(z.regexes.email.flags);
  });

  test.each([
    ["first name", (s: string) => ({ firstName: s }), 100],
    ["last name", (s: string) => ({ lastName: s }), 100],
    ["message", (s: string) => ({ message: s }), 1000],
    [
      "honoree",
      (s: string) => ({ dedicate: true, dedication: { type: "IN_HONOR" as const, honoreeName: s, notifyEmail: "", message: "" } }),
      140,
    ],
    [
      "dedication message",
      (s: string) => ({ dedicate: true, dedication: { type: "IN_MEMORY" as const, honoreeName: "Grace", notifyEmail: "", message: s } }),
      1000,
    ],
  ])("%s: at its limit and one past it", (_name, patch, max) => {
    expect(verdicts(campaign, filled(campaign, patch("x".repeat(max))))).toEqual([true, true]);
    expect(verdicts(campaign, filled(campaign, patch("x".repeat(max + 1))))).toEqual([false, false]);
  });

  test("address lines, city and postal code at their limits and one past them", () => {
    for (const [field, max] of [
      ["line1", 200],
      ["line2", 200],
      ["city", 100],
      ["region", 100],
      ["postalCode", 20],
    ] as const) {
      const at = filled(withAddress, { address: { ...address, [field]: "x".repeat(max) } });
      const past = filled(withAddress, { address: { ...address, [field]: "x".repeat(max + 1) } });
      expect(verdicts(withAddress, at), field).toEqual([true, true]);
      expect(verdicts(withAddress, past), field).toEqual([false, false]);
    }
    expect(verdicts(withAddress, filled(withAddress, { address: { ...address, country: "ZZ" } }))).toEqual([false, false]);
    expect(verdicts(withAddress, filled(withAddress, { address: { ...address, country: "gb" } }))).toEqual([true, true]);
  });

  test("Gift Aid's house and postcode", () => {
    const giftAid = (postcode: string, house = "12") =>
      filled(uk, { claimGiftAid: true, giftAid: { title: "", houseNameOrNumber: house, postcode } });
    expect(verdicts(uk, giftAid("SW1A 1AA"))).toEqual([true, true]);
    expect(verdicts(uk, giftAid("S"))).toEqual([false, false]);
    expect(verdicts(uk, giftAid("x".repeat(13)))).toEqual([false, false]);
    expect(verdicts(uk, giftAid("SW1A 1AA", "x".repeat(101)))).toEqual([false, false]);
  });

  test.each(["ada@example.org", " ada@example.org ", "a.b+c@sub.example.co.uk"])("a good email: %s", (email) => {
    expect(verdicts(campaign, filled(campaign, { email }))).toEqual([true, true]);
  });

  test.each(["", "ada", "ada@", "@example.org", "ada@example", "ada example@x.org", `${"x".repeat(320)}@example.org`])(
    "a bad email: %s",
    (email) => {
      expect(verdicts(campaign, filled(campaign, { email }))).toEqual([false, false]);
    },
  );

  test("a dedication's optional email", () => {
    const dedication = (notifyEmail: string) =>
      filled(campaign, { dedicate: true, dedication: { type: "IN_HONOR", honoreeName: "Grace", notifyEmail, message: "" } });
    expect(verdicts(campaign, dedication(""))).toEqual([true, true]);
    expect(verdicts(campaign, dedication("grace@example.org"))).toEqual([true, true]);
    expect(verdicts(campaign, dedication("grace@"))).toEqual([false, false]);
  });

  test("the amount's bounds: one dollar, a million dollars", () => {
    const custom = (text: string) => filled(campaign, { amount: { choice: "custom", custom: text } });
    expect(verdicts(campaign, custom("1.00"))).toEqual([true, true]);
    expect(verdicts(campaign, custom("1000000"))).toEqual([true, true]);
    expect(verdicts(campaign, custom("1000000.01"))).toEqual([false, false]);
  });

  test("an event's seats", () => {
    const event = formCampaign({
      type: "EVENT",
      suggestedAmounts: [],
      ticketPriceCents: 2000,
      ticketCapacity: null,
      maxTicketsPerOrder: 100,
    });
    expect(verdicts(event, filled(event, { tickets: "100" }))).toEqual([true, true]);
    expect(verdicts(event, filled(event, { tickets: "0" }))[0]).toBe(false);
  });
});
