import { formatDate } from "@/components/donate/format";
import { formatMoney } from "@/lib/money";
import type { DonorRecurringPlanView } from "@/lib/schemas/donor-account";
import styles from "./account.module.css";

const PER = { MONTH: "a month", YEAR: "a year" } as const;
const STATUS = { ACTIVE: "Active", PAST_DUE: "Payment overdue", INCOMPLETE: "Not started", CANCELED: "Canceled" } as const;

/** The account page's recurring gifts: what each gives, how often, and its state. */
export function Plans({ plans }: { orgSlug: string; plans: DonorRecurringPlanView[] }) {
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
                  {p.canceledAt ? ` · ended ${formatDate(p.canceledAt)}` : ""}
                </span>
              </div>
              <div className={styles.itemSide}>
                <span className={styles.amount}>
                  {formatMoney(p.amount, p.currency)} {PER[p.interval]}
                </span>
                <span className={styles.tag}>{STATUS[p.status]}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default Plans;
