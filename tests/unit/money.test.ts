/**
 * Properties of lib/money.ts: the "cover the fees" amount, the platform's cut, donation
 * matching, and amounts as people read and type them in currencies of 0, 2 and 3 decimals.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  coverFeeCents,
  currencyDecimals,
  currencySymbol,
  decimalSign,
  formatMoney,
  matchFor,
  minimumDonationMinor,
  minorToInput,
  parseMoney,
  platformFeeCents,
} from "@/lib/money";

/** What the card processor takes from a charge: 2.9 % rounded up, plus 30¢. */
const processorFee = (charge: number) => Math.ceil((charge * 290) / 10_000) + 30;
/** What the organization keeps of a charge. */
const net = (charge: number) => charge - processorFee(charge);
const covers = (gift: number, fee: number) => net(gift + fee) >= gift;

/** The smallest fee that covers the gift, by plain search. */
function bruteForceFee(gift: number): number {
  for (let fee = 0; ; fee++) if (covers(gift, fee)) return fee;
}

describe("coverFeeCents", () => {
  it("matches a brute-force search for the smallest covering fee (small gifts)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), (gift) => {
        expect(coverFeeCents(gift)).toBe(bruteForceFee(gift));
      }),
      { numRuns: 500 },
    );
  });

  it("matches the brute force exactly for every gift from 100 to 3 000 cents", () => {
    for (let gift = 100; gift <= 3_000; gift++) expect(coverFeeCents(gift), `gift ${gift}`).toBe(bruteForceFee(gift));
  });

  it("is the smallest covering fee for any gift up to what a donation may be", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (gift) => {
        const fee = coverFeeCents(gift);
        expect(Number.isSafeInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(30);
        expect(covers(gift, fee)).toBe(true);
        expect(covers(gift, fee - 1)).toBe(false);
      }),
      { numRuns: 1_000 },
    );
  });

  it("never decreases as the gift grows", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (gift, more) => {
        expect(coverFeeCents(gift + more)).toBeGreaterThanOrEqual(coverFeeCents(gift));
      }),
    );
  });

  it("known values", () => {
    // 100¢: 134 − ceil(3.886) − 30 = 100; 133 − 4 − 30 = 99.
    expect(coverFeeCents(100)).toBe(34);
    expect(coverFeeCents(2500)).toBe(bruteForceFee(2500));
    expect(coverFeeCents(0)).toBe(31);
  });
});

describe("platformFeeCents", () => {
  it("is an integer between 0 and the charge, and the charge × bps rounded down", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), fc.integer({ min: 0, max: 10_000 }), (charge, bps) => {
        const fee = platformFeeCents(charge, bps);
        expect(Number.isInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(charge);
        // Rounded down: the exact share lies in [fee, fee + 1).
        expect(BigInt(fee) * 10_000n).toBeLessThanOrEqual(BigInt(charge) * BigInt(bps));
        expect((BigInt(fee) + 1n) * 10_000n).toBeGreaterThan(BigInt(charge) * BigInt(bps));
      }),
      { numRuns: 1_000 },
    );
  });

  it("is 0 without a platform fee and the whole charge at 100 %", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_147_483_647 }), (charge) => {
        expect(platformFeeCents(charge, 0)).toBe(0);
        expect(platformFeeCents(charge, 10_000)).toBe(charge);
      }),
    );
    expect(platformFeeCents(3333, 250)).toBe(83);
    expect(platformFeeCents(99, 250)).toBe(2);
  });
});

describe("matchFor", () => {
  const amount = fc.integer({ min: 0, max: 100_000_000 });
  const ratio = fc.integer({ min: 1, max: 1_000 });
  const budget = fc.integer({ min: 0, max: 1_000_000_000 });

  it("never exceeds the remaining budget, the wanted match, and is never negative", () => {
    fc.assert(
      fc.property(amount, ratio, budget, fc.integer({ min: 0, max: 1_100_000_000 }), (a, r, max, already) => {
        const m = matchFor(a, r, max, already);
        expect(Number.isInteger(m)).toBe(true);
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBeLessThanOrEqual(Math.max(0, max - already));
        expect(m).toBeLessThanOrEqual(Math.floor((a * r) / 100));
        // It takes all it can: the wanted match, or everything that is left.
        expect(m).toBe(Math.max(0, Math.min(Math.floor((a * r) / 100), max - already)));
      }),
      { numRuns: 1_000 },
    );
  });

  it("without a cap is the ratio of the gift, rounded down", () => {
    fc.assert(
      fc.property(amount, ratio, fc.integer({ min: 0, max: 1_000_000_000 }), (a, r, already) => {
        const m = matchFor(a, r, null, already);
        expect(Number.isInteger(m)).toBe(true);
        expect(m).toBeGreaterThanOrEqual(0);
        expect(m).toBe(Math.floor((a * r) / 100));
      }),
    );
    expect(matchFor(2500, 100, null, 0)).toBe(2500);
    expect(matchFor(2500, 200, null, 0)).toBe(5000);
    expect(matchFor(333, 50, null, 0)).toBe(166);
  });

  it("a sequence of gifts never matches more than the budget in total", () => {
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 40 }), ratio, budget, (gifts, r, max) => {
        let matched = 0;
        for (const g of gifts) {
          const m = matchFor(g, r, max, matched);
          expect(m).toBeGreaterThanOrEqual(0);
          matched += m;
          expect(matched).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});

describe("currencyDecimals", () => {
  it("is the minor unit's decimal places, by Intl", () => {
    expect(currencyDecimals("usd")).toBe(2);
    expect(currencyDecimals("EUR")).toBe(2);
    expect(currencyDecimals("jpy")).toBe(0);
    expect(currencyDecimals("krw")).toBe(0);
    expect(currencyDecimals("bhd")).toBe(3);
  });
});

describe("formatMoney", () => {
  it("divides by the currency's own power of ten", () => {
    expect(formatMoney(125050, "usd")).toBe("$1,250.50");
    expect(formatMoney(5000, "usd")).toBe("$50.00");
    expect(formatMoney(5000, "jpy")).toBe("¥5,000");
    expect(formatMoney(5000, "krw")).toBe("₩5,000");
    expect(formatMoney(1500, "bhd").replace(/\s/g, " ")).toBe("BHD 1.500");
  });

  it("uses the locale's grouping, decimal mark and sign position", () => {
    expect(formatMoney(125050, "eur", { locale: "de" }).replace(/\s/g, " ")).toBe("1.250,50 €");
    expect(formatMoney(125000, "eur", { locale: "de", short: true }).replace(/\s/g, " ")).toBe("1.250 €");
    expect(formatMoney(5000, "jpy", { locale: "de" }).replace(/\s/g, " ")).toBe("5.000 ¥");
  });

  it("short drops the decimals of whole amounts only", () => {
    expect(formatMoney(5000, "usd", { short: true })).toBe("$50");
    expect(formatMoney(1234, "usd", { short: true })).toBe("$12.34");
    expect(formatMoney(5000, "jpy", { short: true })).toBe("¥5,000");
    expect(formatMoney(2000, "bhd", { short: true }).replace(/\s/g, " ")).toBe("BHD 2");
  });
});

describe("minorToInput", () => {
  it("writes what a money input shows: no sign, no grouping, no decimals for a whole amount", () => {
    expect(minorToInput(2500, "usd")).toBe("25");
    expect(minorToInput(2550, "usd")).toBe("25.50");
    expect(minorToInput(5, "usd")).toBe("0.05");
    expect(minorToInput(5000, "jpy")).toBe("5000");
    expect(minorToInput(1005, "bhd")).toBe("1.005");
    expect(minorToInput(null, "usd")).toBe("");
    expect(minorToInput(undefined, "jpy")).toBe("");
  });

  it("writes the locale's decimal sign: a comma in es, fr and de", () => {
    expect(minorToInput(2550, "eur", { locale: "en-US" })).toBe("25.50");
    expect(minorToInput(2550, "eur", { locale: "de" })).toBe("25,50");
    expect(minorToInput(2550, "usd", { locale: "es" })).toBe("25,50");
    expect(minorToInput(2500, "eur", { locale: "fr" })).toBe("25");
    expect(minorToInput(1005, "bhd", { locale: "fr" })).toBe("1,005");
    expect(minorToInput(123456789, "eur", { locale: "de" })).toBe("1234567,89");
    expect(minorToInput(5000, "jpy", { locale: "es" })).toBe("5000");
  });
});

describe("decimalSign", () => {
  it("is the locale's decimal sign, a dot in English and without a locale", () => {
    const signs = { "en-US": ".", en: ".", es: ",", fr: ",", de: ",", "de-CH": ".", "not a tag": "." };
    for (const [locale, sign] of Object.entries(signs)) expect(decimalSign(locale), locale).toBe(sign);
    expect(decimalSign()).toBe(".");
  });
});

describe("parseMoney", () => {
  const minor = (text: string, currency: string) => {
    const r = parseMoney(text, currency);
    return r.ok ? r.minor : r.message;
  };

  it("reads amounts digit by digit, never through floating point", () => {
    expect(minor("25", "usd")).toBe(2500);
    expect(minor("25.5", "usd")).toBe(2550);
    expect(minor("0.29", "usd")).toBe(29);
    expect(minor("1.15", "usd")).toBe(115);
    expect(minor("$1,250.50", "usd")).toBe(125050);
    expect(minor(" 12 ", "eur")).toBe(1200);
    expect(minor("€12.30", "eur")).toBe(1230);
    expect(minor(".5", "usd")).toBe(50);
    expect(minor("25.", "usd")).toBe(2500);
    expect(minor("007", "usd")).toBe(700);
    expect(minor("1.500", "bhd")).toBe(1500);
    expect(minor("0.001", "bhd")).toBe(1);
  });

  it("zero-decimal currencies take whole amounts and refuse decimals", () => {
    expect(minor("5000", "jpy")).toBe(5000);
    expect(minor("¥5,000", "jpy")).toBe(5000);
    expect(minor("₩12000", "krw")).toBe(12000);
    expect(minor("5000.00", "jpy")).toBe(5000);
    expect(minor("5000.5", "jpy")).toBe("This currency has no decimals: enter a whole amount");
    expect(minor("50.25", "krw")).toBe("This currency has no decimals: enter a whole amount");
    expect(minor("5,00", "jpy")).toBe("Enter a whole amount, like 5000");
  });

  it("refuses what is not an amount, with a message saying what to type", () => {
    expect(parseMoney("", "usd")).toEqual({ ok: true, minor: null });
    expect(parseMoney("   ", "jpy")).toEqual({ ok: true, minor: null });
    expect(minor("12.345", "usd")).toBe("Use at most two decimal places");
    expect(minor("1.2345", "bhd")).toBe("Use at most three decimal places");
    expect(minor("25,50", "usd")).toBe("Use a dot for decimals, like 25.50");
    expect(minor("-5", "usd")).toBe("Must be a positive amount");
    expect(minor("abc", "usd")).toBe("Enter an amount like 25 or 25.50");
    expect(minor(".", "usd")).toBe("Enter an amount like 25 or 25.50");
    expect(minor("1e3", "usd")).toBe("Enter an amount like 25 or 25.50");
    expect(minor("12345678901", "usd")).toBe("That amount is too large");
  });

  it("refusals carry a code to translate: negative, too precise (with the decimals), too large, unreadable", () => {
    expect(parseMoney("-5", "usd")).toMatchObject({ ok: false, code: "negative" });
    expect(parseMoney("€-5", "eur", { locale: "fr" })).toMatchObject({ ok: false, code: "negative" });
    expect(parseMoney("-", "eur", { locale: "de" })).toMatchObject({ ok: false, code: "negative" });
    expect(parseMoney("12.345", "usd")).toMatchObject({ ok: false, code: "too_precise", decimals: 2 });
    expect(parseMoney("1.2345", "bhd")).toMatchObject({ ok: false, code: "too_precise", decimals: 3 });
    expect(parseMoney("5000.5", "jpy")).toMatchObject({ ok: false, code: "too_precise", decimals: 0 });
    expect(parseMoney("12345678901", "usd")).toMatchObject({ ok: false, code: "too_large" });
    for (const text of ["25,50", "abc", ".", "1e3", "1,2,3"])
      expect(parseMoney(text, "usd")).toMatchObject({ ok: false, code: "unreadable" });
    expect(parseMoney("5,00", "jpy")).toMatchObject({ ok: false, code: "unreadable" });
  });

  it("round-trips minorToInput → parseMoney for any amount in any kind of currency", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.constantFrom("usd", "eur", "jpy", "krw", "bhd"), (amount, currency) => {
        expect(parseMoney(minorToInput(amount, currency), currency)).toEqual({ ok: true, minor: amount });
      }),
      { numRuns: 2_000 },
    );
  });

  it("reads back what formatMoney writes in English, sign and grouping included", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), fc.constantFrom("usd", "eur", "jpy", "krw"), (amount, currency) => {
        expect(parseMoney(formatMoney(amount, currency), currency)).toEqual({ ok: true, minor: amount });
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("parseMoney in a language whose decimal sign is a comma", () => {
  const LOCALES = ["en-US", "es", "fr", "de"] as const;
  const COMMA_LOCALES = ["es", "fr", "de"] as const;
  const CURRENCIES = ["usd", "eur", "jpy", "krw", "bhd", "chf"] as const;

  it("reads a decimal comma, dots or spaces grouping thousands, and a sign before or after", () => {
    for (const locale of COMMA_LOCALES) {
      const read = (text: string, currency = "eur") => parseMoney(text, currency, { locale });
      expect(read("25,50"), locale).toEqual({ ok: true, minor: 2550 });
      expect(read("25,5"), locale).toEqual({ ok: true, minor: 2550 });
      expect(read("1.234,56"), locale).toEqual({ ok: true, minor: 123456 });
      expect(read("1.234.567,89"), locale).toEqual({ ok: true, minor: 123456789 });
      expect(read("1 250,50 €"), locale).toEqual({ ok: true, minor: 125050 });
      expect(read("1\u202f250,50\u00a0€"), locale).toEqual({ ok: true, minor: 125050 });
      expect(read("€ 12,30"), locale).toEqual({ ok: true, minor: 1230 });
      expect(read("12,30 EUR"), locale).toEqual({ ok: true, minor: 1230 });
      expect(read("40,50 $", "usd"), locale).toEqual({ ok: true, minor: 4050 });
      expect(read(`40,50 ${{ es: "US$", fr: "$US", de: "USD" }[locale]}`, "usd"), locale).toEqual({ ok: true, minor: 4050 });
      expect(read(",5"), locale).toEqual({ ok: true, minor: 50 });
      expect(read(""), locale).toEqual({ ok: true, minor: null });
      expect(read("  "), locale).toEqual({ ok: true, minor: null });
    }
  });

  it("takes dot-only groups of three as thousands, any other dot as a decimal point", () => {
    for (const locale of COMMA_LOCALES) {
      const read = (text: string, currency = "eur") => parseMoney(text, currency, { locale });
      expect(read("1.250"), locale).toEqual({ ok: true, minor: 125000 });
      expect(read("1.250.000"), locale).toEqual({ ok: true, minor: 125000000 });
      expect(read("5.000", "jpy"), locale).toEqual({ ok: true, minor: 5000 });
      expect(read("25.50"), locale).toEqual({ ok: true, minor: 2550 });
      expect(read("25.5"), locale).toEqual({ ok: true, minor: 2550 });
      expect(read("1.2345", "bhd"), locale).toMatchObject({ ok: false, code: "too_precise", decimals: 3 });
    }
  });

  it("refuses with the same codes, and an English message showing the comma", () => {
    for (const locale of COMMA_LOCALES) {
      const read = (text: string, currency = "eur") => parseMoney(text, currency, { locale });
      expect(read("12,345"), locale).toEqual({ ok: false, code: "too_precise", decimals: 2, message: "Use at most two decimal places" });
      expect(read("50,5", "jpy"), locale).toMatchObject({ ok: false, code: "too_precise", decimals: 0 });
      expect(read("-5"), locale).toMatchObject({ ok: false, code: "negative" });
      expect(read("12345678901"), locale).toMatchObject({ ok: false, code: "too_large" });
      expect(read("zehn"), locale).toEqual({ ok: false, code: "unreadable", message: "Enter an amount like 25 or 25,50" });
      expect(read("diez", "jpy"), locale).toEqual({ ok: false, code: "unreadable", message: "Enter a whole amount, like 5000" });
      for (const text of ["1,2,3", "1.2,50", "1.250.5", "1,250.50", ",", "1e3"])
        expect(read(text), `${locale} ${text}`).toMatchObject({ ok: false, code: "unreadable" });
    }
  });

  it("reads English as before, with or without a locale", () => {
    for (const opts of [{}, { locale: "en-US" }, { locale: "en" }]) {
      expect(parseMoney("25.50", "usd", opts)).toEqual({ ok: true, minor: 2550 });
      expect(parseMoney("$1,250.50", "usd", opts)).toEqual({ ok: true, minor: 125050 });
      expect(parseMoney("1,250", "usd", opts)).toEqual({ ok: true, minor: 125000 });
      expect(parseMoney("¥5,000", "jpy", opts)).toEqual({ ok: true, minor: 5000 });
      expect(parseMoney("25,50", "usd", opts)).toMatchObject({
        ok: false,
        code: "unreadable",
        message: "Use a dot for decimals, like 25.50",
      });
    }
  });

  it("reads back what minorToInput and formatMoney write, for every locale and currency", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9_999_999_999 }),
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...LOCALES),
        (m, c, locale) => {
          expect(parseMoney(minorToInput(m, c, { locale }), c, { locale })).toEqual({ ok: true, minor: m });
          expect(parseMoney(formatMoney(m, c, { locale }), c, { locale })).toEqual({ ok: true, minor: m });
        },
      ),
      { numRuns: 3_000 },
    );
  });
});

describe("currency helpers", () => {
  it("currencySymbol: the narrow sign, else the code", () => {
    expect(currencySymbol("usd")).toBe("$");
    expect(currencySymbol("eur")).toBe("€");
    expect(currencySymbol("jpy")).toBe("¥");
    expect(currencySymbol("chf")).toBe("CHF");
    expect(currencySymbol("bhd")).toBe("BHD");
  });

  it("minimumDonationMinor: one unit, or 100 for a zero-decimal currency", () => {
    expect(minimumDonationMinor("usd")).toBe(100);
    expect(minimumDonationMinor("eur")).toBe(100);
    expect(minimumDonationMinor("jpy")).toBe(100);
    expect(minimumDonationMinor("krw")).toBe(100);
    expect(minimumDonationMinor("bhd")).toBe(1000);
  });
});
