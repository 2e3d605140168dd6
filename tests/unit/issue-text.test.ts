import { describe, expect, test } from "vitest";
import { donateFormSchema, donationRequestBody, initialValues, type DonateFormValues } from "@/components/donate/donate-schema";
import { formatMoney } from "@/lib/money";
import type { DonateFormCampaign } from "@/components/donate/types";
import { donateWording } from "@/components/donate/issue-words";
import { issueText, type IssueTextOptions } from "@/components/forms/issue-text";
import { translator } from "@/lib/i18n/translate";
import { issueCodeOf } from "@/lib/errors";
import { createDonationBody } from "@/lib/schemas/donations";
import { updateCampaignBody } from "@/lib/schemas/campaigns";
import { filled, formCampaign, formEvent } from "../helpers/donate-form";

// The donate form's wording in English, as the page in English shows it.
const english = translator("en", "donate");
const donateWords = donateWording(
  (key, values) => english(`errors.${key}`, values),
  (c) => formatMoney(c, "usd", { short: c >= 100_000 }),
  "en-US",
);

/** Each field's first issue worded, as the form shows it. */
function texts(
  result: { success: boolean; error?: { issues: import("zod").core.$ZodIssue[] } },
  opts: IssueTextOptions | typeof donateWords,
) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map(String).join(".");
    out[path] ??=
      "text" in opts ? opts.text(path, issueCodeOf(issue), issue.message) : issueText(path, issueCodeOf(issue), issue.message, opts);
  }
  return out;
}

const campaign = formCampaign();
const event = formEvent();

const check = (c: DonateFormCampaign, v: DonateFormValues, ctx = { captcha: false, captchaUnavailable: false }) =>
  texts(donateFormSchema(c, v, ctx).safeParse(v), donateWords);

describe("the API's issues worded for the donate form", () => {
  test("createDonationBody's own rules: amount limits in money, names, email, message length", () => {
    const r = createDonationBody.safeParse({
      campaignId: "c",
      amount: 99,
      email: "nope",
      message: "x".repeat(1001),
      firstName: "y".repeat(101),
    });
    expect(texts(r, donateWords)).toEqual({
      amount: "The minimum gift is $1.00",
      email: "Enter an email address like name@example.com",
      message: "Use at most 1,000 characters",
      firstName: "Use at most 100 characters",
    });
    const big = createDonationBody.safeParse({ campaignId: "c", amount: 100_000_001, email: "a@b.co" });
    expect(texts(big, donateWords)).toEqual({ amount: "The most you can give online is $1,000,000" });
  });

  test("a filled form passes and its request body is what was typed, trimmed", () => {
    const v = filled(campaign, { firstName: "  Ada ", message: "  ", recurringInterval: "MONTH" });
    expect(donateFormSchema(campaign, v, { captcha: false, captchaUnavailable: false }).safeParse(v).success).toBe(true);
    expect(donationRequestBody(v, campaign, false)).toEqual({
      campaignId: "cmp_1",
      amount: 5000,
      email: "ada@example.org",
      firstName: "Ada",
      lastName: "Lovelace",
      anonymous: false,
      message: null,
      dedication: null,
      recurringInterval: "MONTH",
      tickets: null,
      coverFees: false,
      remindIfUnfinished: false,
      emailOptIn: false,
    });
    expect(donationRequestBody({ ...v, captchaToken: "tok" }, campaign, true)).toMatchObject({ captchaToken: "tok" });
  });

  test("empty fields say what to enter; the campaign's minimum replaces the API's", () => {
    const v = { ...initialValues(campaign), amount: { choice: "custom", custom: "4.99" }, dedicate: true };
    expect(check(campaign, v)).toEqual({
      amount: "The minimum gift is $5.00",
      firstName: "Enter your first name",
      lastName: "Enter your last name",
      email: "Enter your email address for the receipt",
      "dedication.honoreeName": "Enter the name of the person you're honoring",
    });
    expect(check(campaign, filled(campaign, { amount: { choice: "custom", custom: "12.345" } }))).toEqual({
      amount: "Use at most two decimal places",
    });
    expect(check(campaign, filled(campaign, { amount: { choice: "custom", custom: "2000000" } }))).toEqual({
      amount: "The most you can give online is $1,000,000",
    });
  });

  test("suggested amounts only, tickets per order and tickets left, the captcha", () => {
    const fixed = { ...campaign, allowCustomAmount: false, minAmountCents: null };
    expect(check(fixed, filled(fixed, { amount: { choice: "custom", custom: "7" } }))).toEqual({
      amount: "Choose one of the suggested amounts",
    });
    expect(check(event, filled(event, { tickets: "0" }))).toEqual({ tickets: "Choose at least 1 ticket" });
    expect(check(event, filled(event, { tickets: "6" }))).toEqual({ tickets: "Only 5 tickets are left" });
    const roomy = { ...event, ticketsSold: 0 };
    expect(check(roomy, filled(roomy, { tickets: "9" }))).toEqual({ tickets: "You can buy up to 8 tickets at once" });
    expect(check(campaign, filled(campaign), { captcha: true, captchaUnavailable: false })).toEqual({
      captchaToken: "Complete the verification check above the button",
    });
    expect(check(campaign, filled(campaign), { captcha: true, captchaUnavailable: true }).captchaToken).toMatch(/couldn't load/);
  });

  test("server answers: codes worded, unknown codes and schema-worded rules keep the server's message", () => {
    const t = donateWords.fieldTexts(
      {
        amount: ["Number must be greater than or equal to 2500"],
        tickets: ["At most 8 tickets per order"],
        captchaToken: ["Verification failed or expired, please try again"],
        currency: ["This campaign accepts usd only"],
      },
      {
        amount: [{ code: "amount_below_minimum", minimum: 2500 }],
        tickets: [{ code: "tickets_over_limit", maximum: 8 }],
        captchaToken: [{ code: "captcha_invalid" }],
        currency: [{ code: "currency_not_accepted", values: ["usd"] }],
      },
    );
    expect(t).toEqual({
      amount: "The minimum gift is $25.00",
      tickets: "You can buy up to 8 tickets at once",
      captchaToken: "The verification check expired. Complete it again, then continue.",
      currency: "This campaign accepts usd only",
    });
  });
});

describe("the API's issues worded for the campaign editor", () => {
  const opts: IssueTextOptions = {
    fields: { goalAmountCents: { money: true }, minAmountCents: { money: true }, suggestedAmounts: { money: true } },
    money: (c) => formatMoney(c, "usd", { short: true }),
  };
  test("money limits as money, counts as numbers, pattern rules in the schema's words", () => {
    const r = updateCampaignBody.safeParse({
      title: "",
      goalAmountCents: 0,
      minAmountCents: 50,
      suggestedAmounts: [25, 5000],
      matchingRatioPct: 1001,
      slug: "Not A Slug",
      color: "red",
      description: "x".repeat(20_001),
    });
    expect(texts(r, opts)).toEqual({
      title: "Required",
      goalAmountCents: "Must be more than zero",
      minAmountCents: "Must be at least $1",
      "suggestedAmounts.0": "Must be at least $1",
      matchingRatioPct: "Must be at most 1,000",
      slug: "Only lower-case letters, digits and single hyphens between them",
      color: "Must be a hex colour like #1a7f5a or #fff",
      description: "Use at most 20,000 characters",
    });
  });
  test("the campaign rules' codes", () => {
    expect(issueText("endDate", { code: "end_not_after_start", after: "startDate" }, "Must be after startDate")).toBe(
      "Must be after the start",
    );
    expect(issueText("ticketPriceCents", { code: "required_for_event" }, "Required for EVENT campaigns")).toBe("Required");
    expect(issueText("parentCampaignId", { code: "invalid_parent_campaign" }, "Must name a PEER_TO_PEER campaign")).toBe(
      "Must name a PEER_TO_PEER campaign",
    );
  });
});

describe("limits read from the API's schemas", () => {
  test("text lengths and the number of suggested amounts", async () => {
    const { TEXT_MAX } = await import("@/components/donate/donate-schema");
    const { MAX_SUGGESTED } = await import("@/components/dashboard/campaign-form-model");
    expect(TEXT_MAX).toEqual({
      name: 100,
      email: 320,
      message: 1000,
      honoreeName: 140,
      dedicationMessage: 1000,
      addressLine: 200,
      city: 100,
      postalCode: 20,
      houseNameOrNumber: 100,
      title: 20,
      postcode: 12,
    });
    expect(MAX_SUGGESTED).toBe(12);
  });
});
