import Link from "next/link";
import styles from "./[slug]/page.module.css";

/** Unknown organization, unknown campaign, or a campaign that is still a draft. */
export default function DonatePageNotFound() {
  return (
    <div className={styles.shell}>
      <main id="main" className={styles.thanks}>
        <div className={styles.thanksCard}>
          <h1 className={styles.thanksTitle}>We can&apos;t find this campaign</h1>
          <p className={styles.thanksLead}>
            The link may be mistyped, or the campaign isn&apos;t published yet. Check the address, or ask the organization for their
            donation link.
          </p>
          <p>
            <Link className={styles.back} href="/">
              Go to Goodfund
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}
