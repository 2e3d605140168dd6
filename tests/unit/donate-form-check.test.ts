import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { donateFormSchema, type DonateFormContext, type DonateFormValues } from "@/components/donate/donate-schema";
import type { DonateFormCampaign } from "@/components/donate/types";
import { issueCodeOf } from "@/lib/errors";
import { POSTCODE_MIN, TEXT_LIMITS } from "@/lib/schemas/donation-limits";
import { formCampaign, formEvent } from "../helpers/donate-form";
import { referenceDonateFormSchema } from "../helpers/donate-form-zod-reference";

// The donate form checks a gift by hand (no schema library on the donate page). Its rules were
// written with zod/mini before; that version is kept as the reference (tests/helpers), and here
// both judge the same generated forms: the same verdict, and the same problems on the same
// fields, in the same order, with the same codes and values (what the form words them from).

const campaigns: Record<string, DonateFormCampaign> = {
  donation: formCampaign(),
  "suggested amounts only": formCampaign({ allowCustomAmount: false, minAmountCents: null }),
  yen: formCampaign({ currency: "jpy", suggestedAmounts: [1000, 5000], minAmountCents: null }),
  event: formEvent(),
  "membership, address asked": formCampaign({ type: "MEMBERSHIP", collectAddress: true }),
  "Canadian receipts": formCampaign({ receiptProfile: "CA", currency: "cad" }),
  "UK, Gift Aid": formCampaign({ receiptProfile: "UK", currency: "gbp" }),
};

/** Text near a limit, with spaces to trim, or a few characters from a small alphabet. */
const text = (max: number) =>
  fc.oneof(
    fc.constantFrom("", " ", "  Ada ", "x".repeat(max), "x".repeat(max + 1), ` ${"y".repeat(max)} `),
    fc.string({ unit: fc.constantFrom("a", "Z", " ", "<", "é", "1"), maxLength: 8 }),
  );
const email = fc.constantFrom(
  "",
  " ",
  "ada@example.org",
  " ada@example.org ",
  "nope",
  "a@b",
  "a..b@example.org",
  "a@b.co",
  `${"a".repeat(330)}@b.co`,
);
const amountText = fc.constantFrom(
  "",
  "25",
  "25.50",
  "25,50",
  "1.234,56",
  "4.99",
  "0",
  "-5",
  "abc",
  "5000.50",
  "¥5,000",
  "99999999999",
  "12,345",
);

const values = (c: DonateFormCampaign): fc.Arbitrary<DonateFormValues> =>
  fc.record({
    amount: fc.record({ choice: fc.constantFrom("custom", ...c.suggestedAmounts.map(String), "300"), custom: amountText }),
    tickets: fc.constantFrom("", "0", "1", "5", "8", "9", "120", "1000", "x", "2.5"),
    ticketOrder: fc.constant([]),
    extraGift: fc.constant(""),
    recurringInterval: fc.constantFrom("ONCE", "WEEK", "MONTH", "YEAR", "DAILY") as fc.Arbitrary<DonateFormValues["recurringInterval"]>,
    firstName: text(TEXT_LIMITS.name),
    lastName: text(TEXT_LIMITS.name),
    email,
    anonymous: fc.boolean(),
    message: text(TEXT_LIMITS.message),
    dedicate: fc.boolean(),
    dedication: fc.record({
      type: fc.constantFrom("IN_HONOR", "IN_MEMORY", "OTHER") as fc.Arbitrary<"IN_HONOR" | "IN_MEMORY">,
      honoreeName: text(TEXT_LIMITS.honoreeName),
      notifyEmail: email,
      message: text(TEXT_LIMITS.dedicationMessage),
    }),
    coverFees: fc.boolean(),
    remindIfUnfinished: fc.boolean(),
    emailOptIn: fc.boolean(),
    address: fc.record({
      line1: text(TEXT_LIMITS.addressLine),
      line2: text(TEXT_LIMITS.addressLine),
      city: text(TEXT_LIMITS.city),
      region: text(TEXT_LIMITS.region),
      postalCode: text(TEXT_LIMITS.postalCode),
      country: fc.constantFrom("", " ", "US", "us", " gb ", "ZZ", "CAN", "ca"),
    }),
    claimGiftAid: fc.boolean(),
    giftAid: fc.record({
      title: text(TEXT_LIMITS.giftAidTitle),
      houseNameOrNumber: text(TEXT_LIMITS.houseNameOrNumber),
      postcode: fc.constantFrom("", " ", "SW1A 1AA", "AB", "x".repeat(POSTCODE_MIN), "x".repeat(TEXT_LIMITS.postcode + 1)),
    }),
    upsell: fc.constantFrom(null, "OFFERED", "ACCEPTED", "DECLINED") as fc.Arbitrary<DonateFormValues["upsell"]>,
    captchaToken: fc.constantFrom(null, "", "tok", "t".repeat(3000)),
  });

const contexts: DonateFormContext[] = [
  { captcha: false, captchaUnavailable: false },
  { captcha: true, captchaUnavailable: false, locale: "de-DE" },
  { captcha: true, captchaUnavailable: true, locale: "en-US" },
];

/** A check's problems as the form uses them: the field, the code and values it words, the fallback message. */
function problems(result: { success: boolean; error?: { issues: import("zod").core.$ZodIssue[] } }) {
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path.join("."), code: issueCodeOf(issue), message: issue.message }));
}

describe("the donate form's hand-written check judges like its zod/mini reference", () => {
  test.each(Object.entries(campaigns))("%s", (_name, c) => {
    fc.assert(
      fc.property(values(c), fc.constantFrom(...contexts), (v, context) => {
        const ours = donateFormSchema(c, v, context).safeParse(v);
        const reference = referenceDonateFormSchema(c, v, context).safeParse(v);
        expect(problems(ours)).toEqual(problems(reference));
        expect(ours.success).toBe(reference.success);
        if (ours.success && reference.success && c.type !== "EVENT") expect(ours.data.amount).toBe(reference.data.amount);
      }),
      { numRuns: 400 },
    );
  });
});
