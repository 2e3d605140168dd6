import PDFDocument from "pdfkit";
import type { Ticket } from "@/db/schema";
import { pdfBytes, pdfText } from "@/lib/services/statements/statement-pdf";
import { ticketQrPng } from "@/lib/tickets/qr";

const MARGIN = 48;

export type TicketPdfContent = { orgName: string; eventTitle: string; eventDate: Date | null; tickets: Ticket[] };

/** An order's tickets as a PDF (pdfkit): one block per ticket with its QR code, attendee, tier and code. */
export async function renderTicketsPdf(c: TicketPdfContent): Promise<Buffer> {
  const qrs = await Promise.all(c.tickets.map((t) => ticketQrPng(t.code)));
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    info: { Title: pdfText(`${c.eventTitle} - tickets`), Author: pdfText(c.orgName), Creator: "Goodfund", Producer: "Goodfund" },
  });
  const done = pdfBytes(doc);
  const width = doc.page.width - 2 * MARGIN;
  const QR = 150;
  c.tickets.forEach((t, i) => {
    if (i > 0 && i % 3 === 0) doc.addPage();
    const top = MARGIN + (i % 3) * (QR + 60);
    doc.image(qrs[i], MARGIN, top, { width: QR, height: QR });
    const x = MARGIN + QR + 20;
    doc
      .fillColor("#1a1a1a")
      .font("Helvetica-Bold")
      .fontSize(16)
      .text(pdfText(c.eventTitle), x, top + 10, { width: width - QR - 20 });
    doc
      .font("Helvetica")
      .fontSize(11)
      .fillColor("#555555")
      .text(pdfText(c.orgName), { width: width - QR - 20 });
    if (c.eventDate) doc.text(c.eventDate.toUTCString(), { width: width - QR - 20 });
    doc
      .moveDown(0.6)
      .fillColor("#1a1a1a")
      .font("Helvetica-Bold")
      .fontSize(13)
      .text(pdfText(t.attendeeName), { width: width - QR - 20 });
    doc
      .font("Helvetica")
      .fontSize(11)
      .text(pdfText(t.tierName), { width: width - QR - 20 });
    doc
      .fontSize(9)
      .fillColor("#555555")
      .text(`Ticket ${t.code}${t.status === "VOID" ? " (VOID)" : ""}`, { width: width - QR - 20 });
  });
  doc.end();
  return done;
}
