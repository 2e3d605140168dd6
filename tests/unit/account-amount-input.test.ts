/**
 * The account page's amount field (a recurring gift's new amount): what lib/money.ts refuses,
 * worded in the page's language, with a sample amount written the way that language writes one.
 * (How the field reads amounts in each language is tested in money.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { amountProblemText } from "@/components/account/amount-input";
import { translator } from "@/lib/i18n/translate";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { parseMoney } from "@/lib/money";

/** What the field says under `text` typed on the account page in `locale`, or the amount it read. */
function said(locale: Locale, text: string, currency = "eur"): string | number | null {
  const t = translator(locale, "account");
  const parsed = parseMoney(text, currency, { locale: intlTag(locale) });
  return parsed.ok ? parsed.minor : amountProblemText(parsed, currency, intlTag(locale), (key, v) => t(`amountForm.${key}`, v));
}

describe("the account's amount field", () => {
  it("reads what a German, French or Spanish donor types", () => {
    for (const locale of ["de", "fr", "es"] as const) {
      expect(said(locale, "40,50")).toBe(4050);
      expect(said(locale, "1.250")).toBe(125000);
      expect(said(locale, "25.50")).toBe(2550);
    }
    expect(said("en", "40.50")).toBe(4050);
  });

  it("says why an amount is refused, in the page's language", () => {
    expect(said("en", "12.345", "usd")).toBe("Use at most two decimal places");
    expect(said("es", "12,345", "usd")).toBe("Use como máximo 2 decimales");
    expect(said("de", "12,345")).toBe("Verwenden Sie höchstens 2 Nachkommastellen");
    expect(said("fr", "50,5", "jpy")).toBe("Cette devise n’a pas de décimales\u00a0: saisissez un montant entier");
    expect(said("es", "-5")).toBe("El importe debe ser positivo");
    expect(said("de", "12345678901")).toBe("Dieser Betrag ist zu hoch");
    expect(said("de", "zehn")).toBe("Geben Sie einen Betrag wie 25,50 ein");
    expect(said("en", "ten", "usd")).toBe("Enter an amount like 25.50");
    expect(said("de", "zehn", "bhd")).toBe("Geben Sie einen Betrag wie 25,500 ein");
    expect(said("es", "diez", "jpy")).toBe("Introduzca un importe sin decimales, como 5000");
  });
});
