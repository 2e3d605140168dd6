import { formatDate } from "@/components/donate/format";
import { formatMoney } from "@/lib/money";
import type { DonorRecurringPlanView } from "@/lib/schemas/donor-account";
import styles from "./account.module.css";
import { PlanControls } from "./plan-controls";

const PER = { MONTH: "a month", YEAR: "a year" } as const;
const STATUS = { ACTIVE: "Active", PAST_DUE: "Payment overdue", INCOMPLETE: "Not started", CANCELED: "Canceled" } as const;
const ENDED_BY = { donor: "canceled by you", staff: "canceled by the organization", processor: "ended by the payment processor" } as const;

/**
 * When an ACTIVE plan charges next: its billing day recurs from its start, so after n paid
 * charges the next is n intervals after it (clamped to the month's last day, as Stripe does).
 */
export function nextChargeDate(p: Pick<DonorRecurringPlanView, "createdAt" | "interval" | "donationCount">): string {
  const start = new Date(p.createdAt);
  const months = (p.interval === "MONTH" ? 1 : 12) * Math.max(1, p.donationCount);
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
export function Plans({ orgSlug, plans }: { orgSlug: string; plans: DonorRecurringPlanView[] }) {
  return (
    <section className={styles.card} aria-labelledby="plans-title">
      <h2 id="plans-title">Recurring gifts</h2>
      {plans.length === 0 ? (
        <p>You have no monthly or yearly gifts.</p>
      ) : (
        <ul className={styles.list}>
          {plans.map((p) => (
            <li key={p.id} className={styles.item}>
              <div className={styles.itemMain}>
                <span className={styles.itemTitle}>{p.campaignTitle}</span>
                <span className={styles.itemMeta}>
                  Since {formatDate(p.createdAt)}
                  {p.status === "ACTIVE" ? ` · Next charge ${formatDate(nextChargeDate(p))}` : ""}
                  {p.canceledAt ? ` · ${p.canceledBy ? ENDED_BY[p.canceledBy] : "ended"} ${formatDate(p.canceledAt)}` : ""}
                </span>
              </div>
              <div className={styles.itemSide}>
                <span className={styles.amount}>
                  {formatMoney(p.amount, p.currency)} {PER[p.interval]}
                </span>
                <span className={styles.tag}>{STATUS[p.status]}</span>
              </div>
              <PlanControls orgSlug={orgSlug} plan={p} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default Plans;
