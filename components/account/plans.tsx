import { intlTag, type Locale } from "@/lib/i18n/locales";
import { formatter, translator } from "@/lib/i18n/translate";
import { formatMoney } from "@/lib/money";
import { MONTHS_PER_CYCLE } from "@/lib/recurring-intervals";
import type { DonorRecurringPlanView } from "@/lib/schemas/donor-account";
import { AccountSection } from "./account-section";
import styles from "./account.module.css";
import { PlanControls } from "./plan-controls";

/**
 * When an ACTIVE plan charges next: its billing day recurs from its start, so after n paid
 * charges the next is n intervals after it (clamped to the month's last day, as Stripe does).
 */
export function nextChargeDate(p: Pick<DonorRecurringPlanView, "createdAt" | "interval" | "donationCount">): string {
  const start = new Date(p.createdAt);
  const months = Math.round(MONTHS_PER_CYCLE[p.interval] * Math.max(1, p.donationCount));
  const y = start.getUTCFullYear();
  const m = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const next = new Date(Date.UTC(y, m, Math.min(start.getUTCDate(), lastDay), start.getUTCHours(), start.getUTCMinutes()));
  return next.toISOString();
}

/**
 * The account page's recurring gifts: what each gives, how often, its state and next charge,
 * and, while it runs, the donor's controls (change the amount, replace the card, cancel).
 */
export function Plans({
  orgSlug,
  plans,
  locale,
  timeZone,
}: {
  orgSlug: string;
  plans: DonorRecurringPlanView[];
  locale: Locale;
  /** The organization's time zone, the plans' dates'. */
  timeZone: string;
}) {
  const t = translator(locale, "account");
  const format = formatter(locale, timeZone);
  const date = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "long" });
  return (
    <AccountSection id="plans-title" title={t("plans.title")} empty={plans.length === 0 && t("plans.empty")}>
      <ul className={styles.list}>
        {plans.map((p) => (
          <li key={p.id} className={styles.item}>
            <div className={styles.itemMain}>
              <span className={styles.itemTitle}>{p.campaignTitle}</span>
              <span className={styles.itemMeta}>
                {t("plans.since", { date: date(p.createdAt) })}
                {p.status === "ACTIVE" ? ` · ${t("plans.nextCharge", { date: date(nextChargeDate(p)) })}` : ""}
                {p.canceledAt ? ` · ${t(`plans.ended.${p.canceledBy ?? "unknown"}`, { date: date(p.canceledAt) })}` : ""}
              </span>
            </div>
            <div className={styles.itemSide}>
              <span className={styles.amount}>
                {t(`plans.amountPer.${p.interval}`, { amount: formatMoney(p.amount, p.currency, { locale: intlTag(locale) }) })}
              </span>
              <span className={styles.tag}>{t(`plans.status.${p.status}`)}</span>
            </div>
            <PlanControls orgSlug={orgSlug} plan={p} />
          </li>
        ))}
      </ul>
    </AccountSection>
  );
}

export default Plans;
