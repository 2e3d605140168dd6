import type { CSSProperties, ReactNode } from "react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { brandStyle } from "@/components/donate/brand";
import { LockIcon } from "@/components/donate/icons";
import { loadCampaign, palette, type DonatePageParams } from "./data";
import styles from "./page.module.css";

/** "Riverside Food Bank" → "RF": the mark of an organization without a logo. */
function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^\p{L}|^\p{N}/u.test(w));
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0].toUpperCase());
  return letters.join("") || Array.from(name.trim())[0]?.toUpperCase() || "?";
}

/**
 * The hosted donate pages' frame: the organization's bar (its logo, or its initials in a circle
 * of the brand colour, and its name: the page's one mark of who is asking), the brand colour as
 * CSS variables, and the footer. Unknown and DRAFT campaigns are a 404 here, above the page's loading
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
              <img className={styles.orgLogo} src={org.logoUrl} alt="" width={40} height={40} />
            ) : (
              <span className={styles.orgInitial} aria-hidden="true">
                {initials(org.name)}
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
          Fundraising by <Link href="/">Goodfund</Link>
        </p>
      </footer>
    </div>
  );
}
