import { MailItem } from "./mail-item";
import type { YearEndStatementProps } from "@/lib/email/types";
import { emailSubject } from "@/lib/email/render";

/** A queued year-end statement email, as the outbox keeps it. */
export type StatementMail = { id: number; payload: unknown; createdAt: Date };

/**
 * The sandbox mailbox's year-end statement emails (kept in the outbox, no RESEND_API_KEY), each
 * with its PDF attachment, rendered on request exactly as it would be sent. Only the mailbox
 * page renders this, after its own loopback check.
 */
export function StatementMails({ mails }: { mails: StatementMail[] }) {
  if (mails.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="statement-mails-title">
      <h2 id="statement-mails-title">Year-end statements</h2>
      <ul className="mail-list plain-list" aria-label="Year-end statement emails">
        {mails.map((r) => {
          const payload = r.payload as { to?: string; props?: YearEndStatementProps };
          const props = payload.props;
          if (!props) return null;
          return (
            <MailItem key={r.id} to={payload.to} createdAt={r.createdAt}>
              <p style={{ margin: 0 }}>{emailSubject({ template: "year-end-statement", props })}</p>
              <div className="button-row">
                <a className="button secondary" href={`/sandbox/mailbox/attachments/${r.id}`} download>
                  Attachment: statement-{props.statement.year}.pdf
                  <span className="sr-only"> for {payload.to}</span>
                </a>
              </div>
            </MailItem>
          );
        })}
      </ul>
    </section>
  );
}
