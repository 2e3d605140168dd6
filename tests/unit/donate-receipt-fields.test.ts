import { describe, expect, test } from "vitest";
import { donateFormSchema, donationRequestBody, initialValues, type DonateFormValues } from "@/components/donate/donate-schema";
import { donateWording } from "@/components/donate/issue-words";
import type { DonateFormCampaign } from "@/components/donate/types";
import { addressRequired } from "@/lib/address-required";
import { issueCodeOf } from "@/lib/errors";
import { translator } from "@/lib/i18n/translate";
import { formatMoney } from "@/lib/money";
import { createDonationBody } from "@/lib/schemas/donations";
import { filled, formCampaign } from "../helpers/donate-form";

const english = translator("en", "donate");
const words = donateWording(
  (key, values) => english(`errors.${key}`, values),
  (c) => formatMoney(c, "usd"),
  "en-US",
);

/** Each field's first problem, worded as the form shows it. */
function problems(c: DonateFormCampaign, v: DonateFormValues): Record<string, string> {
  const result = donateFormSchema(c, v, { captcha: false, captchaUnavailable: false }).safeParse(v);
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.map(String).join(".");
    out[path] ??= words.text(path, issueCodeOf(issue), issue.message);
  }
  return out;
}

const ADDRESS = { line1: "1 Main St", line2: "", city: "Halifax", region: "NS", postalCode: "B3H 1A1", country: "CA" };

describe("addressRequired", () => {
  test("the campaign's collectAddress or a CA receipt profile asks for the address; nothing else does", () => {
    expect(addressRequired({ collectAddress: false }, { receiptProfile: "US" })).toBe(false);
    expect(addressRequired({ collectAddress: false }, { receiptProfile: "UK" })).toBe(false);
    expect(addressRequired({ collectAddress: false }, { receiptProfile: "GENERIC" })).toBe(false);
    expect(addressRequired({ collectAddress: true }, { receiptProfile: "US" })).toBe(true);
    expect(addressRequired({ collectAddress: false }, { receiptProfile: "CA" })).toBe(true);
  });
});

describe("the donate form's receipt fields", () => {
  test("email opt-in is off by default and goes with the gift as ticked", () => {
    const c = formCampaign();
    expect(donationRequestBody(filled(c), c, false).emailOptIn).toBe(false);
    const body = donationRequestBody(filled(c, { emailOptIn: true }), c, false);
    expect(body.emailOptIn).toBe(true);
    expect(body).not.toHaveProperty("address");
    expect(body).not.toHaveProperty("giftAid");
    expect(createDonationBody.safeParse({ ...body, amount: 5000 }).success).toBe(true);
  });

  test("a CA organization's form requires the street, city and country, each worded next to its field", () => {
    const c = formCampaign({ receiptProfile: "CA" });
    expect(initialValues(c).address.country).toBe("CA");
    const v = filled(c, { address: { ...ADDRESS, line1: " ", city: "", country: "" } });
    expect(problems(c, v)).toEqual({ "address.line1": "Required", "address.city": "Required", "address.country": "Required" });
    const ok = filled(c, { address: ADDRESS });
    expect(problems(c, ok)).toEqual({});
    const body = donationRequestBody(ok, c, false);
    expect(body.address).toEqual({ ...ADDRESS, line2: null });
    expect(createDonationBody.safeParse(body).success).toBe(true);
  });

  test("a campaign with collectAddress asks for the address under any profile; without it, no address is checked", () => {
    const asks = formCampaign({ collectAddress: true, receiptProfile: "GENERIC" });
    expect(initialValues(asks).address.country).toBe("");
    expect(problems(asks, filled(asks))).toMatchObject({ "address.line1": "Required", "address.country": "Required" });
    const plain = formCampaign();
    expect(problems(plain, filled(plain))).toEqual({});
  });

  test("a UK organization offers Gift Aid: once ticked, the house name or number and postcode are required", () => {
    const c = formCampaign({ receiptProfile: "UK", currency: "gbp" });
    expect(problems(c, filled(c))).toEqual({});
    const ticked = filled(c, { claimGiftAid: true });
    expect(problems(c, ticked)).toEqual({ "giftAid.houseNameOrNumber": "Required", "giftAid.postcode": "Required" });
    const v = filled(c, { claimGiftAid: true, giftAid: { title: "Ms", houseNameOrNumber: "14", postcode: "sw1a 1aa" } });
    expect(problems(c, v)).toEqual({});
    const body = donationRequestBody(v, c, false);
    expect(body.giftAid).toEqual({
      title: "Ms",
      firstName: "Ada",
      lastName: "Lovelace",
      houseNameOrNumber: "14",
      postcode: "sw1a 1aa",
      confirmed: true,
    });
    expect(createDonationBody.safeParse(body).data?.giftAid?.postcode).toBe("SW1A 1AA");
  });

  test("Gift Aid is never sent for another profile, even if the value were ticked", () => {
    const c = formCampaign({ receiptProfile: "US" });
    const body = donationRequestBody(filled(c, { claimGiftAid: true }), c, false);
    expect(body).not.toHaveProperty("giftAid");
  });
});
