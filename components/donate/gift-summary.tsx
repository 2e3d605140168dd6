import { Checkbox } from "./fields";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

/** The offer to cover the card fees. */
export function CoverFees({ f, organizationName }: { f: DonateFormState; organizationName: string }) {
  const { feeCents, amountCents, money, t } = f;
  return (
    <Checkbox
      id={f.ids.id("coverFees")}
      name="coverFees"
      checked={f.values.coverFees}
      onChange={(v) => f.setValue("coverFees", v)}
      label={
        feeCents !== null
          ? t.rich("form.coverFees", { fee: money(feeCents), num: (chunks) => <span className={styles.num}>{chunks}</span> })
          : t("form.coverFeesNoAmount")
      }
      hint={
        amountCents !== null
          ? t("form.coverFeesHint", { org: organizationName, amount: money(amountCents) })
          : t("form.coverFeesHintNoAmount", { org: organizationName })
      }
      reserveHint
    />
  );
}

/** What the donor is about to give, and what a sponsor adds. */
export function GiftSummary({ f }: { f: DonateFormState }) {
  const { campaign, isEvent, totalCents, interval, tickets, matchCents, money, t } = f;
  const strong = (chunks: React.ReactNode) => <strong className={styles.num}>{chunks}</strong>;
  return (
    <div className={styles.summary}>
      <p className={styles.summaryLine} data-live="summary">
        {totalCents === null
          ? t(isEvent ? "form.chooseTickets" : "form.chooseAmount")
          : isEvent
            ? t.rich("form.youPay", { amount: money(totalCents), count: tickets, strong })
            : t.rich("form.youGive", { amount: money(totalCents), interval: interval ?? "ONCE", strong })}
      </p>
      {campaign.matchingEnabled && (
        <p className={styles.matchLine} data-live="match">
          {matchCents !== null && matchCents > 0
            ? campaign.matchingOrgName
              ? t.rich("form.matchedBy", { amount: money(matchCents), by: campaign.matchingOrgName, strong })
              : t.rich("form.matched", { amount: money(matchCents), strong })
            : t("form.matchedGeneric")}
        </p>
      )}
    </div>
  );
}
