import { and, desc, eq, sql } from "drizzle-orm";
import { MailItem } from "./mail-item";
import { getDb } from "@/db";
import { outbox } from "@/db/schema";
import type { YearEndStatementProps } from "@/lib/email/types";
import { emailSubject } from "@/lib/email/render";

const SHOWN = 20;

/**
 * The sandbox mailbox's year-end statement emails (kept in the outbox, no RESEND_API_KEY), each
 * with its PDF attachment, rendered on request exactly as it would be sent. Only the mailbox
 * page renders this, after its own loopback check.
 */
export async function StatementMails() {
  const db = await getDb();
  const rows = await db
    .select({ id: outbox.id, payload: outbox.payload, createdAt: outbox.createdAt })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = 'year-end-statement'`))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(SHOWN);
  if (rows.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="statement-mails-title">
      <h2 id="statement-mails-title">Year-end statements</h2>
      <ul className="mail-list plain-list" aria-label="Year-end statement emails">
        {rows.map((r) => {
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
