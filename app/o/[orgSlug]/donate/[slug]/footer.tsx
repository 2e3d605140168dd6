import type { ReactNode } from "react";
import type { translator } from "@/lib/i18n/translate";
import styles from "./page.module.css";

/**
 * The donate pages' footer: who is asking (legal name, tax ID), the platform, and the language
 * menu (`children`: the App Router's reads the address itself, the donate page's is given it).
 */
export function DonateFooter({
  org,
  t,
  children,
}: {
  org: { name: string; legalName: string | null; taxId: string | null };
  t: ReturnType<typeof translator<"donate">>;
  children: ReactNode;
}) {
  return (
    <footer className={styles.footer}>
      <p>
        {org.legalName ?? org.name}
        {org.taxId ? ` · ${t("site.taxId", { taxId: org.taxId })}` : ""}
      </p>
      <p>
        {t.rich("site.fundraisingBy", {
          // A plain link: it leaves the donate pages for the platform's home, and next/link would
          // be one more script on the pages that load the framework (the donate page loads none).
          // eslint-disable-next-line @next/next/no-html-link-for-pages
          link: (chunks) => <a href="/">{chunks}</a>,
        })}
      </p>
      {children}
    </footer>
  );
}
