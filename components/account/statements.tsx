import styles from "./account.module.css";

/** The account page's year-end statements: one PDF per calendar year the donor gave (GET …/statements/:year). */
export function Statements({ orgSlug, years }: { orgSlug: string; years: number[] }) {
  return (
    <section className={styles.card} aria-labelledby="statements-title">
      <h2 id="statements-title">Year-end statements</h2>
      {years.length === 0 ? (
        <p>A statement of your gifts for each year appears here once you have given.</p>
      ) : (
        <>
          <p>One statement per year, listing your gifts and their total, for your tax records.</p>
          <ul className={styles.list}>
            {years.map((year) => (
              <li key={year} className={styles.item}>
                <span className={styles.itemTitle}>{year}</span>
                <a className={styles.link} href={`/api/donor/orgs/${encodeURIComponent(orgSlug)}/statements/${year}`} download>
                  Download the {year} statement (PDF)
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
