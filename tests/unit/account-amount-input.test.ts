/**
 * The account page's amount field (a recurring gift's new amount) read in the page's language:
 * a comma is the decimal sign in Spanish, French and German, a dot in English; amounts are
 * integer minor units, and a refusal says why in words the form translates.
 */
import { describe, expect, it } from "vitest";
import { amountToInput, parseAmount } from "@/components/account/amount-input";

describe("the account's amount field", () => {
  it("shows the current amount with the language's decimal sign", () => {
    expect(amountToInput(2550, "eur", "en")).toBe("25.50");
    expect(amountToInput(2550, "eur", "de")).toBe("25,50");
    expect(amountToInput(2500, "eur", "fr")).toBe("25");
    expect(amountToInput(5000, "jpy", "es")).toBe("5000");
  });

  it("reads what a German, French or Spanish donor types", () => {
    for (const locale of ["de", "fr", "es"] as const) {
      expect(parseAmount("25,50", "eur", locale)).toEqual({ ok: true, minor: 2550 });
      expect(parseAmount("25,5", "eur", locale)).toEqual({ ok: true, minor: 2550 });
      expect(parseAmount("1.250,50", "eur", locale)).toEqual({ ok: true, minor: 125050 });
      expect(parseAmount("1.250", "eur", locale)).toEqual({ ok: true, minor: 125000 });
      expect(parseAmount("1 250,50 €", "eur", locale)).toEqual({ ok: true, minor: 125050 });
      expect(parseAmount("1\u202f250,50\u00a0€", "eur", locale)).toEqual({ ok: true, minor: 125050 });
      // A dot that is not a group of three is still a decimal point.
      expect(parseAmount("25.50", "eur", locale)).toEqual({ ok: true, minor: 2550 });
      expect(parseAmount(amountToInput(4075, "eur", locale), "eur", locale)).toEqual({ ok: true, minor: 4075 });
      expect(parseAmount("", "eur", locale)).toEqual({ ok: true, minor: null });
    }
  });

  it("reads English as before: a dot for decimals, commas grouping thousands", () => {
    expect(parseAmount("25.50", "usd", "en")).toEqual({ ok: true, minor: 2550 });
    expect(parseAmount("$1,250.50", "usd", "en")).toEqual({ ok: true, minor: 125050 });
    expect(parseAmount("¥5,000", "jpy", "en")).toEqual({ ok: true, minor: 5000 });
  });

  it("says why an amount is refused", () => {
    expect(parseAmount("12.345", "usd", "en")).toEqual({ ok: false, problem: { kind: "tooManyDecimals", decimals: 2 } });
    expect(parseAmount("12,345", "eur", "de")).toEqual({ ok: false, problem: { kind: "tooManyDecimals", decimals: 2 } });
    expect(parseAmount("50,5", "jpy", "fr")).toEqual({ ok: false, problem: { kind: "noDecimals" } });
    expect(parseAmount("-5", "eur", "es")).toEqual({ ok: false, problem: { kind: "negative" } });
    expect(parseAmount("12345678901", "eur", "de")).toEqual({ ok: false, problem: { kind: "tooLarge" } });
    expect(parseAmount("zehn", "eur", "de")).toEqual({ ok: false, problem: { kind: "format", example: "25,50" } });
    expect(parseAmount("ten", "usd", "en")).toEqual({ ok: false, problem: { kind: "format", example: "25.50" } });
    expect(parseAmount("diez", "jpy", "es")).toEqual({ ok: false, problem: { kind: "formatWhole", example: "5000" } });
    expect(parseAmount("1,2,3", "eur", "fr")).toMatchObject({ ok: false });
  });
});
