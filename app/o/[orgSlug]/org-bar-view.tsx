import { LockIcon } from "@/components/donate/icons";
import type { translator } from "@/lib/i18n/translate";
import styles from "./donate/[slug]/page.module.css";

/** "Riverside Food Bank" → "RF": the mark of an organization without a logo. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^\p{L}|^\p{N}/u.test(w));
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0].toUpperCase());
  return letters.join("") || Array.from(name.trim())[0]?.toUpperCase() || "?";
}

/** The bar with the donate pages' words (`t`), or without the "Secure donation" note (null). */
export function OrgBarView({
  org,
  t,
}: {
  org: { name: string; logoUrl: string | null };
  t: ReturnType<typeof translator<"donate">> | null;
}) {
  return (
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
        {t && (
          <span className={styles.secure}>
            <LockIcon /> <span className={styles.secureLong}>{t("site.secure")}</span>
            <span className={styles.secureShort}>{t("site.secureShort")}</span>
          </span>
        )}
      </div>
    </header>
  );
}
