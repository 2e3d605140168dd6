import { intlTag, type Locale } from "@/lib/i18n/locales";
import { currencyDecimals, currencySymbol, minorToInput, parseMoney } from "@/lib/money";

/**
 * A money input in the page's language: "25.50" in English, "25,50" in Spanish, French and
 * German, where the comma is the decimal sign and the dot (or a space) groups thousands. Amounts
 * stay integer minor units: the text is only rewritten into lib/money.ts's form and parsed there.
 * Pure: safe on the client.
 */

/** Why a typed amount is not one, for the form to say in the page's language. */
export type AmountProblem =
  | { kind: "negative" }
  | { kind: "noDecimals" }
  | { kind: "tooManyDecimals"; decimals: number }
  | { kind: "tooLarge" }
  | { kind: "format"; example: string }
  | { kind: "formatWhole"; example: string };

export type ParsedAmount = { ok: true; minor: number | null } | { ok: false; problem: AmountProblem };

const separators = new Map<string, string>();

/** The decimal sign of a language: "." for en, "," for es, fr and de. */
export function decimalSign(locale: Locale): string {
  const tag = intlTag(locale);
  let sign = separators.get(tag);
  if (sign === undefined) {
    sign = new Intl.NumberFormat(tag).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
    separators.set(tag, sign);
  }
  return sign;
}

/** Minor units as a money input shows them in `locale`: "25.50" (en), "25,50" (de), "5000" (jpy). */
export function amountToInput(minor: number | null | undefined, currency: string, locale: Locale): string {
  const text = minorToInput(minor, currency);
  return decimalSign(locale) === "," ? text.replace(".", ",") : text;
}

/** `input` in lib/money.ts's form (digits, optional "," thousands, "." decimals), read with `locale`'s signs. */
function normalize(input: string, currency: string, locale: Locale): string {
  let s = input.trim().replace(/[\s\u00a0\u202f]/g, "");
  const sign = currencySymbol(currency);
  for (const mark of [sign, currency.toUpperCase(), "$", "€", "£", "¥"]) {
    if (s.startsWith(mark)) s = s.slice(mark.length);
    if (s.endsWith(mark)) s = s.slice(0, -mark.length);
  }
  if (decimalSign(locale) !== ",") return s;
  // A comma is the decimal sign, dots group thousands ("1.250,50"); dots alone in groups of three
  // ("1.250") are thousands too; any other dot is taken as a decimal point ("25.50").
  if (s.includes(",")) return s.replace(/\./g, "").replace(",", ".");
  if (/^-?\d{1,3}(\.\d{3})+$/.test(s)) return s.replace(/\./g, "");
  return s;
}

/** A typed amount as integer minor units (`minor: null` when empty), or why it is not one. */
export function parseAmount(input: string, currency: string, locale: Locale): ParsedAmount {
  const s = normalize(input, currency, locale);
  const parsed = parseMoney(s, currency);
  if (parsed.ok) return parsed;
  const decimals = currencyDecimals(currency);
  const unit = 10 ** decimals;
  if (s.startsWith("-")) return { ok: false, problem: { kind: "negative" } };
  const m = /^(\d*)(?:\.(\d*))?$/.exec(s.replace(/,(?=\d{3}(\D|$))/g, ""));
  if (m) {
    const frac = (m[2] ?? "").replace(/0+$/, "");
    if (frac.length > decimals) {
      return { ok: false, problem: decimals === 0 ? { kind: "noDecimals" } : { kind: "tooManyDecimals", decimals } };
    }
    if (m[1].replace(/^0+(?=\d)/, "").length > 10) return { ok: false, problem: { kind: "tooLarge" } };
  }
  return decimals === 0
    ? { ok: false, problem: { kind: "formatWhole", example: amountToInput(5000, currency, locale) } }
    : { ok: false, problem: { kind: "format", example: amountToInput(25 * unit + unit / 2, currency, locale) } };
}
