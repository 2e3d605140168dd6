import type { Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { AccountSection } from "./account-section";
import styles from "./account.module.css";

/** The account page's year-end statements: one PDF per calendar year the donor gave (GET …/statements/:year). */
export function Statements({ orgSlug, years, locale }: { orgSlug: string; years: number[]; locale: Locale }) {
  const t = translator(locale, "account");
  return (
    <AccountSection id="statements-title" title={t("statements.title")} empty={years.length === 0 && t("statements.empty")}>
      <p>{t("statements.lead")}</p>
      <ul className={styles.list}>
        {years.map((year) => (
          <li key={year} className={styles.item}>
            <span className={styles.itemTitle}>{year}</span>
            <a className={styles.link} href={`/api/donor/orgs/${encodeURIComponent(orgSlug)}/statements/${year}`} download>
              {/* A year is a name, not a quantity: never "2,024". */}
              {t("statements.download", { year: String(year) })}
            </a>
          </li>
        ))}
      </ul>
    </AccountSection>
  );
}
