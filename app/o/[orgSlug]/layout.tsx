import { I18nProvider } from "@/components/i18n/provider";
import { getLangParam, getRequestLocale, messagesFor } from "@/lib/i18n/request";

/**
 * An organization's public site (landing, donate, embed, thank-you and account pages) in the
 * donor's language: client components below read it with `useTranslations` (use-intl).
 */
export default async function OrgSiteLayout({ children }: { children: React.ReactNode }) {
  const locale = await getRequestLocale();
  return (
    <I18nProvider locale={locale} langParam={await getLangParam()} messages={messagesFor(locale, ["common", "donate", "account"])}>
      {children}
    </I18nProvider>
  );
}
