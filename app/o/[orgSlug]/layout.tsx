import { I18nProvider } from "@/components/i18n/provider";
import { getLangParam, getRequestLocale, messagesFor } from "@/lib/i18n/request";

/**
 * An organization's public site (landing, donate, embed, thank-you and account pages) in the
 * donor's language: client components below read it with `useTranslations` (use-intl). Only the
 * namespaces client components use are sent to the browser: `common` and `donate` here, and the
 * account pages add `account` (their layout).
 */
export default async function OrgSiteLayout({ children }: { children: React.ReactNode }) {
  const locale = await getRequestLocale();
  return (
    <I18nProvider locale={locale} langParam={await getLangParam()} messages={messagesFor(locale, ["common", "donate"])}>
      {children}
    </I18nProvider>
  );
}
