import { currencyDecimals, minorToInput, type MoneyProblem } from "@/lib/money";

/**
 * The account page's words for an amount lib/money.ts refuses (a recurring gift's new amount,
 * read there in the page's language): its problem code as an `account.amountForm` message, with
 * a sample amount written the way the page's language writes one ("25,50" in de, fr and es).
 * Pure: safe on the client.
 */

/** A translator over the messages used here (`useTranslations("account.amountForm")`). */
export type AmountFormTranslator = (
  key: "negative" | "tooLarge" | "noDecimals" | "tooManyDecimals" | "format" | "formatWhole",
  values?: Record<string, string | number>,
) => string;

/** Why a typed amount is not one, in the page's language; `locale` is its `Intl` tag. */
export function amountProblemText(problem: MoneyProblem, currency: string, locale: string, t: AmountFormTranslator): string {
  const decimals = currencyDecimals(currency);
  switch (problem.code) {
    case "negative":
      return t("negative");
    case "too_large":
      return t("tooLarge");
    case "too_precise":
      return problem.decimals === 0 ? t("noDecimals") : t("tooManyDecimals", { count: problem.decimals });
    case "unreadable": {
      if (decimals === 0) return t("formatWhole", { example: minorToInput(5000, currency, { locale }) });
      const unit = 10 ** decimals;
      return t("format", { example: minorToInput(25 * unit + unit / 2, currency, { locale }) });
    }
  }
}
