import type { DbOrTx } from "@/db";
import { findOrganization } from "@/db/queries/organizations";
import type { EmailAttachment } from "@/lib/email/send";
import { emailLocale } from "@/lib/email/locale";
import type { EmailMessage } from "@/lib/email/types";
import type { Locale } from "@/lib/i18n/locales";
import { receiptFile } from "@/lib/services/receipts/receipt-pdf";
import { ticketContentId } from "@/lib/tickets/content-id";
import { ticketQrPng } from "@/lib/tickets/qr";
import { loadStatement, type StatementData } from "./statement-data";
import { renderStatementPdf, statementFilename } from "./statement-pdf";

/**
 * A donor's statement for a year as the PDF file they download and get by email, or null when
 * they gave nothing counted that year. Written in `locale` when given (the email's language),
 * else the donor's.
 */
export async function statementFile(
  db: DbOrTx,
  org: Parameters<typeof loadStatement>[1],
  donorId: string,
  year: number,
  locale?: Locale,
): Promise<{ data: StatementData; filename: string; content: Buffer } | null> {
  const loaded = await loadStatement(db, org, donorId, year);
  if (!loaded) return null;
  const data = locale ? { ...loaded, locale } : loaded;
  return { data, filename: statementFilename(org.slug, year), content: await renderStatementPdf(data) };
}

/**
 * The files an outgoing email carries, rendered now from the database (the outbox row holds
 * only what to render): a year-end statement's PDF, or a CA organization's official receipt.
 * `skip` says why an email should not go out at all (its donor was erased, or every gift of that
 * year was refunded since it was queued).
 */
export async function emailAttachments(db: DbOrTx, message: EmailMessage): Promise<{ attachments: EmailAttachment[] } | { skip: string }> {
  if (message.template === "receipt") {
    const { receipt, donationId, ticketCodes } = (message as EmailMessage<"receipt">).props;
    // An event order's QR codes, inline images the receipt shows by Content-ID.
    const qrs: EmailAttachment[] = await Promise.all(
      (ticketCodes ?? []).map(async (c, i) => ({
        filename: `ticket-${i + 1}.png`,
        content: await ticketQrPng(c.code),
        contentType: "image/png",
        contentId: ticketContentId(c.code),
      })),
    );
    if (receipt?.profile !== "CA" || !receipt.number) return { attachments: qrs };
    const file = await receiptFile(db, donationId);
    return { attachments: file ? [{ filename: file.filename, content: file.content }, ...qrs] : qrs };
  }
  if (message.template !== "year-end-statement") return { attachments: [] };
  const { statement, locale } = (message as EmailMessage<"year-end-statement">).props;
  const org = await findOrganization(db, statement.orgId);
  if (!org) return { skip: "organization deleted" };
  const file = await statementFile(db, org, statement.donorId, statement.year, locale && emailLocale(locale));
  if (!file) return { skip: "no counted gifts that year any more, or the donor was erased" };
  return { attachments: [{ filename: file.filename, content: file.content }] };
}
