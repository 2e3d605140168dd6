import { MailItem } from "./mail-item";
import type { PlanPaymentIssueProps } from "@/lib/email/types";
import { emailSubject } from "@/lib/email/render";

/** A queued recurring-gift payment email (a failed renewal, a card about to expire), as the outbox keeps it. */
export type PlanPaymentMail = { id: number; payload: unknown; createdAt: Date };

/**
 * The sandbox mailbox's emails about a recurring gift's payment (kept in the outbox, no
 * RESEND_API_KEY): each with its subject and the link it carries to the donor's account page,
 * where the card is replaced. Only the mailbox page renders this, after its own loopback check.
 */
export function PlanPaymentMails({ mails }: { mails: PlanPaymentMail[] }) {
  if (mails.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="plan-payment-mails-title">
      <h2 id="plan-payment-mails-title">Recurring gift payments</h2>
      <ul className="mail-list plain-list" aria-label="Recurring gift payment emails">
        {mails.map((r) => {
          const payload = r.payload as { to?: string; props?: PlanPaymentIssueProps };
          const props = payload.props;
          if (!props) return null;
          return (
            <MailItem key={r.id} to={payload.to} createdAt={r.createdAt}>
              <p style={{ margin: 0, overflowWrap: "anywhere" }}>{emailSubject({ template: "plan-payment-issue", props })}</p>
              <div className="button-row">
                {/* A short visible label, so a phone-width page never scrolls sideways; the address is in its name. */}
                <a className="button secondary" href={props.url}>
                  Open the account link<span className="sr-only"> in the email to {payload.to}</span>
                </a>
              </div>
            </MailItem>
          );
        })}
      </ul>
    </section>
  );
}
