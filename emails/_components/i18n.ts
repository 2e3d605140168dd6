import { DEFAULT_LOCALE, intlTag, isLocale, type Locale } from "@/lib/i18n/locales";
import { formatter, translator } from "@/lib/i18n/translate";
import { formatMoney } from "@/lib/money";
import { isTimeZone } from "@/lib/time-zone";

/**
 * What a template needs to write in the recipient's language: the `emails` messages, money and
 * long dates in that language's conventions, in the organization's time zone (UTC when the email
 * was queued before there was one). No `locale` means English, as every email was written before
 * languages existed (and as the organization's own emails stay); so does a value that is not one
 * of our languages.
 */
export function emailIntl(wanted?: Locale, timeZone?: string) {
  const locale: Locale = isLocale(wanted) ? wanted : DEFAULT_LOCALE;
  const format = formatter(locale, timeZone && isTimeZone(timeZone) ? timeZone : "UTC");
  return {
    locale,
    t: translator(locale, "emails"),
    money: (minor: number, currency: string) => formatMoney(minor, currency, { locale: intlTag(locale) }),
    /** "March 5, 2025", "5 de marzo de 2025", "5 mars 2025", "5. März 2025". */
    date: (iso: string) => format.dateTime(new Date(iso), { dateStyle: "long" }),
  };
}

export type EmailIntl = ReturnType<typeof emailIntl>;

/** Whom a donor email greets by name: their first name, else their full name, else no one ("Thank you!"). */
export const greetingName = (p: { donorFirstName: string | null; donorName: string | null }) =>
  p.donorFirstName?.trim() || p.donorName?.trim() || null;
