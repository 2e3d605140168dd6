import "@/app/ui.css";
import type { CSSProperties, ReactNode } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { brandPalette, brandStyle } from "@/components/donate/brand";
import { I18nProvider } from "@/components/i18n/provider";
import { getLangParam, getRequestLocale, getTranslations, messagesFor } from "@/lib/i18n/request";
import { OrgBar } from "../org-bar";
import shell from "../donate/[slug]/page.module.css";
import { loadAccountOrg } from "./data";

export const metadata: Metadata = { robots: { index: false, follow: false } };

/**
 * The donor account pages' frame, as the donate pages have it: the organization's bar and brand
 * colour, a skip link and the footer, in the request's language. An unknown organization is a 404.
 */
export default async function AccountLayout({ children, params }: { children: ReactNode; params: Promise<{ orgSlug: string }> }) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const t = await getTranslations("account");
  const locale = await getRequestLocale();
  return (
    <I18nProvider
      locale={locale}
      langParam={await getLangParam()}
      messages={messagesFor(locale, ["common", "donate", "account"])}
      timeZone={org.timeZone}
    >
      <div className={shell.shell} style={brandStyle(brandPalette(org.color)) as CSSProperties}>
        <a className={shell.skip} href="#main">
          {t("frame.skipToContent")}
        </a>
        <OrgBar org={org} secure={false} />
        {children}
        <footer className={shell.footer}>
          <p>
            {org.legalName ?? org.name}
            {org.taxId ? ` · ${t("frame.taxId", { taxId: org.taxId })}` : ""}
          </p>
          <p>{t("frame.poweredBy")}</p>
        </footer>
      </div>
    </I18nProvider>
  );
}
