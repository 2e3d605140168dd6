/** Card processing estimate used for "cover the fees": 2.9 % + 30¢ (Stripe's standard US rate). */
/** The card fee a donor may cover: a percentage (in basis points) and a fixed part (the donate page's script computes it live from these). */
export const COVER_FEE = { PCT_BPS: 290, FIXED_CENTS: 30 } as const;
const { PCT_BPS, FIXED_CENTS } = COVER_FEE;

/**
 * The fee to add so that, after the processor takes its share of the whole charge, the
 * organization receives `giftCents`: the smallest f with (gift + f) − fee(gift + f) ≥ gift.
 * Integer arithmetic only.
 */
export function coverFeeCents(giftCents: number): number {
  // gross = ceil((gift + fixed) / (1 − pct)), computed in basis points.
  const gross = Math.ceil(((giftCents + FIXED_CENTS) * 10_000) / (10_000 - PCT_BPS));
  return gross - giftCents;
}

/** The platform's cut of a charge, rounded down (in the organization's favour). */
export function platformFeeCents(chargeCents: number, feeBps: number): number {
  return Math.floor((chargeCents * feeBps) / 10_000);
}

/** Matching for one gift: ratio % of it, capped by what is left of the campaign's matching budget. */
export function matchFor(amountCents: number, ratioPct: number, maxCents: number | null, alreadyMatchedCents: number): number {
  const wanted = Math.floor((amountCents * ratioPct) / 100);
  if (maxCents === null) return wanted;
  return Math.max(0, Math.min(wanted, maxCents - alreadyMatchedCents));
}

// ---------------------------------------------------------------------------------------------
// Amounts as people read and type them. Amounts are integers in the currency's minor unit (cents
// for usd, yen for jpy); how many decimals that unit has comes from Intl, so zero-decimal
// currencies (jpy, krw, …) are shown and entered without decimals. Pure: safe on the client.

const decimalsCache = new Map<string, number>();

/** The number of decimal places of a currency's minor unit: 2 for usd/eur, 0 for jpy/krw, 3 for bhd. */
export function currencyDecimals(currency: string): number {
  const code = currency.toUpperCase();
  let d = decimalsCache.get(code);
  if (d === undefined) {
    try {
      d = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      d = 2;
    }
    decimalsCache.set(code, d);
  }
  return d;
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount in minor units as text in a locale: "$1,250.50", "¥5,000", "1.250,50 €". `short`
 * drops the decimals of whole amounts ("$50" on an amount button) but keeps real cents. The
 * division is by the currency's own power of ten, never a fixed 100.
 */
export function formatMoney(minor: number, currency: string, opts: { locale?: string; short?: boolean } = {}): string {
  const code = currency.toUpperCase();
  const decimals = currencyDecimals(code);
  const unit = 10 ** decimals;
  const whole = minor % unit === 0;
  const digits = opts.short && whole ? 0 : decimals;
  const locale = opts.locale ?? "en-US";
  const key = `${locale}:${code}:${digits}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, {
        style: "currency",
        currency: code,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
    } catch {
      f = new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
    }
    formatters.set(key, f);
  }
  return f.format(minor / unit);
}

const decimalSigns = new Map<string, string>();

/** The decimal sign of a locale (an `Intl` tag): "." for en, "," for es, fr and de. English without a locale. */
export function decimalSign(locale?: string): "." | "," {
  if (!locale) return ".";
  let sign = decimalSigns.get(locale);
  if (sign === undefined) {
    try {
      sign = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
    } catch {
      sign = ".";
    }
    decimalSigns.set(locale, sign);
  }
  return sign === "," ? "," : ".";
}

/**
 * Minor units → the text a money input shows in `locale` (English without one): "25", "25.50",
 * "25,50" where the comma is the decimal sign, "5000" for jpy (no sign, no grouping).
 */
export function minorToInput(minor: number | null | undefined, currency: string, opts: { locale?: string } = {}): string {
  if (minor === null || minor === undefined) return "";
  const decimals = currencyDecimals(currency);
  if (decimals === 0) return String(minor);
  const unit = 10 ** decimals;
  const whole = Math.trunc(minor / unit);
  const frac = Math.abs(minor % unit);
  return frac === 0 ? String(whole) : `${whole}${decimalSign(opts.locale)}${String(frac).padStart(decimals, "0")}`;
}

/**
 * Why a typed amount is not one, as a code for a form to word in its own language: below zero,
 * more decimals than the currency has (`decimals`: 0 for jpy), more than ten digits, or not an
 * amount at all.
 */
export type MoneyProblem =
  { code: "negative" } | { code: "too_precise"; decimals: number } | { code: "too_large" } | { code: "unreadable" };

/** A parsed amount (`minor: null` when nothing was typed), or its problem with an English `message`. */
export type ParsedMinor = { ok: true; minor: number | null } | ({ ok: false; message: string } & MoneyProblem);

const marksCache = new Map<string, string[]>();

/** The signs an amount may carry before or after it in `locale`: "$", "US$", "$US", "€", "EUR", …; longest first. */
function currencyMarks(currency: string, locale: string): string[] {
  const code = currency.toUpperCase();
  const key = `${locale}:${code}`;
  let marks = marksCache.get(key);
  if (!marks) {
    const signs = new Set([currencySymbol(code), currencySymbol(code, locale), code, "$", "€", "£", "¥"]);
    try {
      const part = new Intl.NumberFormat(locale, { style: "currency", currency: code }).formatToParts(0).find((p) => p.type === "currency");
      if (part) signs.add(part.value.replace(/\s/g, ""));
    } catch {
      // An unknown locale or currency: the signs above.
    }
    marks = [...signs].filter(Boolean).sort((a, b) => b.length - a.length);
    marksCache.set(key, marks);
  }
  return marks;
}

/**
 * A typed amount as integer minor units, parsed as text digit by digit, never through floating
 * point. Empty input is `minor: null`. Read the way `locale` (an `Intl` tag) writes numbers:
 * - English (and without a locale): "25", "1,250.50", "$12.5"; commas only group thousands.
 * - Where the comma is the decimal sign (es, fr, de): "25,50", "1.234,56", "1 234,56 €"; a dot or
 *   a space groups thousands, dots alone in groups of three are thousands ("1.250"), and any
 *   other dot is taken as a decimal point ("25.50").
 * A zero-decimal currency (jpy) refuses decimals. A refusal has a `code` to translate and an
 * English `message`.
 */
export function parseMoney(input: string, currency: string, opts: { locale?: string } = {}): ParsedMinor {
  const decimals = currencyDecimals(currency);
  const comma = decimalSign(opts.locale) === ",";
  const group = comma ? "." : ",";
  const unreadable = (message: string): ParsedMinor => ({ ok: false, code: "unreadable", message });

  let s = input.replace(/\s/g, "");
  const minus = s.startsWith("-");
  for (const mark of currencyMarks(currency, opts.locale ?? "en-US")) {
    if (s.startsWith(mark)) s = s.slice(mark.length);
    if (s.endsWith(mark)) s = s.slice(0, -mark.length);
  }
  if (s === "" && !minus) return { ok: true, minor: null };
  if (minus || s.startsWith("-")) return { ok: false, code: "negative", message: "Must be a positive amount" };

  // Groups of three are thousands: "1,250.50" in English, "1.250,50" and "1.250" elsewhere.
  if ((comma ? /^\d{1,3}(\.\d{3})+(,\d*)?$/ : /^\d{1,3}(,\d{3})+(\.\d*)?$/).test(s)) s = s.split(group).join("");
  else if (!comma && s.includes(","))
    return unreadable(decimals ? "Use a dot for decimals, like 25.50" : "Enter a whole amount, like 5000");
  // Where the comma is the decimal sign, a dot that does not group thousands is a decimal point too.
  const m = /^(\d*)(?:[.,](\d*))?$/.exec(s);
  if (!m || (m[1] === "" && !m[2]))
    return unreadable(decimals ? `Enter an amount like 25 or 25${comma ? "," : "."}50` : "Enter a whole amount, like 5000");
  const frac = m[2] ?? "";
  if (frac.replace(/0+$/, "").length > decimals) {
    return {
      ok: false,
      code: "too_precise",
      decimals,
      message:
        decimals === 0
          ? "This currency has no decimals: enter a whole amount"
          : `Use at most ${["one", "two", "three"][decimals - 1] ?? decimals} decimal places`,
    };
  }
  const whole = m[1].replace(/^0+(?=\d)/, "") || "0";
  if (whole.length > 10) return { ok: false, code: "too_large", message: "That amount is too large" };
  return { ok: true, minor: Number(whole) * 10 ** decimals + Number(frac.slice(0, decimals).padEnd(decimals, "0") || "0") };
}

/**
 * The sign a money input shows before the amount: "$", "€", "£", "¥"; a currency without a
 * sign of its own in English shows its code ("CHF", "BHD").
 */
export function currencySymbol(currency: string, locale = "en-US"): string {
  const code = currency.toUpperCase();
  try {
    const parts = new Intl.NumberFormat(locale, { style: "currency", currency: code, currencyDisplay: "narrowSymbol" }).formatToParts(0);
    const sign = parts.find((p) => p.type === "currency")?.value;
    return sign && !/^[A-Z]{2,3}$/.test(sign) && /[^\s]/.test(sign) ? sign : code;
  } catch {
    return code;
  }
}

/**
 * The smallest gift in a currency, in its minor units: one whole unit (100 cents for usd/eur,
 * 1.000 = 1000 for bhd), and 100 for zero-decimal currencies (¥100, ₩100), where one unit is
 * too little to be worth a card charge.
 */
export function minimumDonationMinor(currency: string): number {
  const decimals = currencyDecimals(currency);
  return decimals === 0 ? 100 : 10 ** decimals;
}

/** An example amount for a money input's placeholder: "25.00", "5000" for jpy. */
export function exampleAmountInput(currency: string): string {
  const decimals = currencyDecimals(currency);
  return decimals === 0 ? "5000" : `25.${"0".repeat(decimals)}`;
}
