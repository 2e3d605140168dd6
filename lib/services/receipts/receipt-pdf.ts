import PDFDocument from "pdfkit";
import type { DbOrTx } from "@/db";
import { getReceiptRow } from "@/db/queries/receipts";
import { findOrganization } from "@/db/queries/organizations";
import { pdfBytes, pdfText } from "@/lib/services/statements/statement-pdf";
import { receiptContent, type ReceiptContent } from "./receipt-content";

const MARGIN = 56;
const INK = "#1a1a1a";
const MUTED = "#555555";

/** `receipt-<org-slug>-<number>.pdf` */
export const receiptFilename = (orgSlug: string, receiptNumber: string) => `receipt-${orgSlug}-${receiptNumber}.pdf`;

/**
 * One gift's receipt as a PDF (pdfkit, like the year-end statements). A pure function of its
 * content and `at` (the document's date), so the same gift always gives the same bytes.
 */
export function renderReceiptPdf(c: ReceiptContent, at: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    info: {
      Title: pdfText(`${c.title} - ${c.orgName}`),
      Author: pdfText(c.orgName),
      Creator: "Goodfund",
      Producer: "Goodfund",
      CreationDate: at,
      ModDate: at,
    },
  });
  const done = pdfBytes(doc);
  const width = doc.page.width - 2 * MARGIN;
  doc.fillColor(INK).font("Helvetica-Bold").fontSize(18).text(pdfText(c.orgName), MARGIN, MARGIN, { width });
  doc.font("Helvetica").fontSize(10).fillColor(MUTED);
  for (const line of c.orgLines) doc.text(pdfText(line), { width });
  doc.moveDown(1.2).fillColor(INK).font("Helvetica-Bold").fontSize(15).text(pdfText(c.title), { width });
  if (c.status === "VOID") doc.moveDown(0.3).fillColor("#b00020").fontSize(13).text("VOID", { width });
  doc.moveDown(0.8).fontSize(10);
  for (const [label, value] of c.rows) {
    const y = doc.y;
    doc.fillColor(MUTED).font("Helvetica").text(pdfText(label), MARGIN, y, { width: 220 });
    const labelBottom = doc.y;
    doc
      .fillColor(INK)
      .font("Helvetica-Bold")
      .text(pdfText(value), MARGIN + 230, y, { width: width - 230 });
    doc.y = Math.max(labelBottom, doc.y) + 4;
  }
  doc.font("Helvetica").fillColor(INK).moveDown(0.8);
  for (const note of c.notes) doc.text(pdfText(note), MARGIN, doc.y, { width }).moveDown(0.5);
  if (c.signature) {
    doc.moveDown(1.5);
    doc
      .moveTo(MARGIN, doc.y)
      .lineTo(MARGIN + 220, doc.y)
      .lineWidth(0.5)
      .strokeColor("#999999")
      .stroke();
    doc.moveDown(0.3).fillColor(MUTED).text(pdfText(c.signature), MARGIN, doc.y, { width });
  }
  doc.end();
  return done;
}

/** A gift's receipt file, or null when the gift has no receipt (never succeeded, or imported). */
export async function receiptFile(db: DbOrTx, donationId: string): Promise<{ filename: string; content: Buffer } | null> {
  const row = await getReceiptRow(db, donationId);
  if (!row?.donation.receiptNumber) return null;
  const org = await findOrganization(db, row.donation.orgId);
  if (!org) return null;
  const content = receiptContent(org, row.donation, row.donor, row.campaignTitle);
  const at = row.donation.succeededAt ?? row.donation.createdAt;
  return { filename: receiptFilename(org.slug, row.donation.receiptNumber), content: await renderReceiptPdf(content, at) };
}
