import { DEFAULT_LOCALE, isLocale, type Locale } from "@/lib/i18n/locales";

/**
 * The language a donor's email is written in: the first of `candidates` that is one of ours, in
 * the order the caller gives them (the donation's language, then the donor's, then the
 * organization's default), else English.
 */
export function emailLocale(...candidates: (string | null | undefined)[]): Locale {
  return candidates.find(isLocale) ?? DEFAULT_LOCALE;
}
