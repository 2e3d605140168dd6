import type { CSSProperties, ReactNode } from "react";
import { notFound } from "next/navigation";
import { brandStyle } from "@/components/donate/brand";
import { LanguageMenu } from "@/components/donate/language-menu";
import { OrgBar } from "../../org-bar";
import { isEmbedRequest, pageLanguage } from "../../site";
import { loadCampaign, palette, type DonatePageParams } from "./data";
import { DonateFooter } from "./footer";
import styles from "./page.module.css";

/**
 * The hosted donate pages' frame: the organization's bar (its logo, or its initials in a circle
 * of the brand colour, and its name: the page's one mark of who is asking), the brand colour as
 * CSS variables, and the footer. Unknown and DRAFT campaigns are a 404 here, above the page's loading
 * boundary, so the response status really is 404 (not a streamed 200). The embeddable form
 * (`/embed`, in another site's frame) keeps the brand colours and drops the bar and the footer
 * (the language menu with it).
 */
export default async function DonateLayout({ children, params }: { children: ReactNode; params: Promise<DonatePageParams> }) {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  if (!row) notFound();
  const { org } = row;
  const embed = await isEmbedRequest();
  const { t } = await pageLanguage();
  return (
    <div
      className={embed ? `${styles.shell} ${styles.embedShell}` : styles.shell}
      style={brandStyle(palette(row)) as CSSProperties}
      data-donate-brand=""
    >
      <a className={styles.skip} href="#main">
        {t("site.skip")}
      </a>
      {!embed && <OrgBar org={org} />}
      {children}
      {!embed && (
        <DonateFooter org={org} t={t}>
          <LanguageMenu />
        </DonateFooter>
      )}
    </div>
  );
}
