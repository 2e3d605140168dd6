import { MailItem } from "./mail-item";
import { renderEmail } from "@/lib/email/render";
import type { EmailMessage, ReceiptProps } from "@/lib/email/types";
import { ticketContentId } from "@/lib/tickets/content-id";
import { ticketQrDataUrl } from "@/lib/tickets/qr";

/** A queued receipt email of an event order, as the outbox keeps it. */
export type TicketReceiptMail = { id: number; payload: unknown; createdAt: Date };

/**
 * The sandbox mailbox's receipts of event orders (kept in the outbox, no RESEND_API_KEY), shown
 * as a mail client would: the email rendered as it is sent, its inline QR code attachments
 * (`cid:` images) put in place. Only the mailbox page renders this, after its own loopback check.
 */
export async function TicketReceiptMails({ mails }: { mails: TicketReceiptMail[] }) {
  const shown = await Promise.all(
    mails.map(async (r) => {
      const message = r.payload as EmailMessage<"receipt">;
      const props = message.props as ReceiptProps | undefined;
      if (!props?.ticketCodes?.length) return null;
      const rendered = await renderEmail(message);
      const subject = rendered.subject;
      let html = rendered.html;
      for (const c of props.ticketCodes) html = html.split(`cid:${ticketContentId(c.code)}`).join(await ticketQrDataUrl(c.code));
      return { r, to: message.to, html, subject };
    }),
  );
  const rows = shown.filter((x) => x !== null);
  if (rows.length === 0) return null;
  return (
    <section className="stack" aria-labelledby="ticket-mails-title">
      <h2 id="ticket-mails-title">Event receipts with tickets</h2>
      <ul className="mail-list plain-list" aria-label="Event receipt emails">
        {rows.map(({ r, to, html, subject }) => (
          <MailItem key={r.id} to={to} createdAt={r.createdAt}>
            <p style={{ margin: 0 }}>{subject}</p>
            <iframe
              title={`Receipt email to ${to}`}
              srcDoc={html}
              sandbox=""
              style={{ width: "100%", height: 600, border: "1px solid #d5ddd8", borderRadius: 8, background: "#fff" }}
            />
          </MailItem>
        ))}
      </ul>
    </section>
  );
}
