"use client";

import { createContext, useContext } from "react";
import { IntlProvider } from "use-intl";
import type { Messages } from "@/lib/i18n/catalog";
import { intlTag, type Locale } from "@/lib/i18n/locales";

const LocaleContext = createContext<{ locale: Locale; langParam: Locale | null }>({ locale: "en", langParam: null });

/**
 * Gives client components of an organization's public pages their language: `useTranslations`
 * and `useFormatter` (use-intl), and `useLocale()` for lib/money.ts and links (`withLang`).
 */
export function I18nProvider({
  locale,
  langParam,
  messages,
  timeZone = "UTC",
  children,
}: {
  locale: Locale;
  langParam: Locale | null;
  messages: Partial<Messages>;
  /** The organization's time zone, which `useFormatter` shows dates in. */
  timeZone?: string;
  children: React.ReactNode;
}) {
  return (
    <LocaleContext.Provider value={{ locale, langParam }}>
      <IntlProvider locale={intlTag(locale)} messages={messages} timeZone={timeZone}>
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

/** The page's language and the `?lang=` to carry on in links (null when it came from elsewhere). */
export function useLocale(): { locale: Locale; langParam: Locale | null } {
  return useContext(LocaleContext);
}
