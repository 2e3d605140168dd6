import { formatDate } from "@/components/donate/format";
import { formatMoney } from "@/lib/money";
import type { DonorDonationView } from "@/lib/schemas/donor-account";
import styles from "./account.module.css";

const STATUS = { SUCCEEDED: null, REFUNDED: "Refunded", DISPUTED: "Disputed" } as const;
const KIND = { MONTH: "Monthly gift", YEAR: "Yearly gift" } as const;

/** The account page's list of the donor's gifts, newest first, each with its receipt page. */
export function Gifts({ gifts, total }: { gifts: DonorDonationView[]; total: number }) {
  return (
    <section className={styles.card} aria-labelledby="gifts-title">
      <h2 id="gifts-title">Your gifts</h2>
      {gifts.length === 0 ? (
        <p>No completed gifts yet. Gifts appear here once their payment goes through.</p>
      ) : (
        <>
          <ul className={styles.list}>
            {gifts.map((g) => {
              const amount = formatMoney(g.amount + g.feeCents, g.currency);
              const date = formatDate(g.succeededAt ?? g.createdAt);
              const status = STATUS[g.status];
              const kind = g.recurringInterval ? `${KIND[g.recurringInterval]}${g.isRenewal ? ", renewal" : ""}` : null;
              return (
                <li key={g.id} className={styles.item}>
                  <div className={styles.itemMain}>
                    <span className={styles.itemTitle}>{g.campaignTitle}</span>
                    <span className={styles.itemMeta}>
                      {date}
                      {kind ? ` · ${kind}` : ""}
                      {g.tickets ? ` · ${g.tickets} ${g.tickets === 1 ? "ticket" : "tickets"}` : ""}
                    </span>
                  </div>
                  <div className={styles.itemSide}>
                    <span className={styles.amount}>{amount}</span>
                    {status && <span className={styles.tag}>{status}</span>}
                    <a className={styles.link} href={g.receiptUrl}>
                      Receipt<span className="sr-only">{` for ${amount} to ${g.campaignTitle} on ${date}`}</span>
                    </a>
                  </div>
                </li>
              );
            })}
          </ul>
          {total > gifts.length && (
            <p className={styles.muted}>
              Showing your {gifts.length} most recent gifts of {total}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
