import type { CSSProperties, ReactNode } from "react";
import { notFound } from "next/navigation";
import { brandStyle } from "@/components/donate/brand";
import { LockIcon } from "@/components/donate/icons";
import { loadCampaign, palette, type DonatePageParams } from "./data";
import styles from "./page.module.css";

/**
 * The hosted donate pages' frame: the organization's bar, the brand colour as CSS variables,
 * and the footer. Unknown and DRAFT campaigns are a 404 here, above the page's loading
 * boundary, so the response status really is 404 (not a streamed 200).
 */
export default async function DonateLayout({ children, params }: { children: ReactNode; params: Promise<DonatePageParams> }) {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  if (!row) notFound();
  const { org } = row;
  return (
    <div className={styles.shell} style={brandStyle(palette(row)) as CSSProperties} data-donate-brand="">
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <header className={styles.topbar}>
        <div className={styles.topbarInner}>
          <span className={styles.orgMark}>
            {org.logoUrl ? (
              <img className={styles.orgLogo} src={org.logoUrl} alt="" width={32} height={32} />
            ) : (
              <span className={styles.orgInitial} aria-hidden="true">
                {org.name.trim().charAt(0).toUpperCase()}
              </span>
            )}
            <span className={styles.orgName}>{org.name}</span>
          </span>
          <span className={styles.secure}>
            <LockIcon /> Secure<span className={styles.secureWord}> donation</span>
          </span>
        </div>
      </header>
      {children}
      <footer className={styles.footer}>
        <p>
          {org.legalName ?? org.name}
          {org.taxId ? ` · Tax ID ${org.taxId}` : ""}
        </p>
        <p>
          Fundraising by <a href="/">Goodfund</a>
        </p>
      </footer>
    </div>
  );
}
