import { withLang } from "@/lib/i18n/href";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { formatter, translator } from "@/lib/i18n/translate";
import { formatMoney } from "@/lib/money";
import type { DonorDonationView } from "@/lib/schemas/donor-account";
import { AccountSection } from "./account-section";
import styles from "./account.module.css";

/** The account page's list of the donor's gifts, newest first, each with its receipt (a PDF once numbered). */
export function Gifts({
  gifts,
  total,
  locale,
  langParam = null,
  timeZone,
}: {
  gifts: DonorDonationView[];
  total: number;
  locale: Locale;
  /** The `?lang=` the page was opened with, carried on to the receipt pages. */
  langParam?: Locale | null;
  /** The organization's time zone, the gifts' dates'. */
  timeZone: string;
}) {
  const t = translator(locale, "account");
  const format = formatter(locale, timeZone);
  return (
    <AccountSection id="gifts-title" title={t("gifts.title")} empty={gifts.length === 0 && t("gifts.empty")}>
      <ul className={styles.list}>
        {gifts.map((g) => {
          const amount = formatMoney(g.amount + g.feeCents, g.currency, { locale: intlTag(locale) });
          const date = format.dateTime(new Date(g.succeededAt ?? g.createdAt), { dateStyle: "long" });
          const status = g.status === "SUCCEEDED" ? null : t(`gifts.status.${g.status}`);
          const kind = g.recurringInterval ? t(`gifts.${g.isRenewal ? "renewal" : "kind"}.${g.recurringInterval}`) : null;
          return (
            <li key={g.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>{g.campaignTitle}</span>
                <span className={styles.itemMeta}>
                  {date}
                  {kind ? ` · ${kind}` : ""}
                  {g.tickets ? ` · ${t("gifts.tickets", { count: g.tickets })}` : ""}
                </span>
              </div>
              <div className={styles.itemSide}>
                <span className={styles.amount}>{amount}</span>
                {status && <span className={styles.tag}>{status}</span>}
                {/* The receipt itself once the gift has one; until then its confirmation page. */}
                <a
                  className={styles.link}
                  href={g.receiptPdfPath ?? withLang(g.receiptUrl, langParam)}
                  download={g.receiptPdfPath ? true : undefined}
                >
                  {t.rich("gifts.receipt", {
                    amount,
                    campaign: g.campaignTitle,
                    date,
                    hidden: (chunks) => <span className="sr-only">{chunks}</span>,
                  })}
                </a>
              </div>
            </li>
          );
        })}
      </ul>
      {total > gifts.length && <p className={styles.muted}>{t("gifts.showing", { shown: gifts.length, total })}</p>}
    </AccountSection>
  );
}
