import PDFDocument from "pdfkit";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { getEnv } from "@/lib/env";
import { formatMoney } from "@/lib/money";
import type { StatementData } from "./statement-data";

const MARGIN = 56;
const FONT = "Helvetica";
const BOLD = "Helvetica-Bold";
const INK = "#1a1a1a";
const MUTED = "#555555";

// The PDF's standard fonts encode text as WinAnsi (Latin-1 and a few more). Characters outside it
// are written as their unaccented letters where Unicode has a decomposition, else as "?".
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/** The bytes of a PDF being written, once `doc.end()` is called: every PDF of ours (statements, receipts, tickets) collects them so. */
export function pdfBytes(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
}

/** Text the standard fonts can show: spaces of any kind become spaces, unknown characters their base letter. */
export function pdfText(input: string): string {
  let out = "";
  for (const ch of input.normalize("NFC")) {
    const code = ch.codePointAt(0)!;
    if (/\s/u.test(ch) && ch !== "\n") out += " ";
    else if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || ch === "\n" || WIN_ANSI_EXTRA.has(ch)) out += ch;
    else {
      const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += [...base].every((c) => c.codePointAt(0)! >= 0x20 && c.codePointAt(0)! <= 0x7e) && base ? base : "?";
    }
  }
  return out;
}

/** A gift's date as the statement prints it, in the organization's time zone and its language ("Mar 5, 2025", "5 mar 2025", "5 mars 2025", "05.03.2025"). */
export const statementDate = (d: Date, locale: Locale = "en", timeZone = "UTC") =>
  new Intl.DateTimeFormat(intlTag(locale), { timeZone, year: "numeric", month: "short", day: "numeric" }).format(d);

/** The name a statement and its email greet the donor by: their full name, else their email. */
export function donorDisplayName(donor: StatementData["donor"]): string {
  return [donor.firstName, donor.lastName].filter(Boolean).join(" ") || donor.email || "—";
}

/** The organization as statements name it: its legal name when set. */
export const orgDisplayName = (org: StatementData["org"]) => org.legalName || org.name;

/** The file name of a statement: `statement-<org-slug>-<year>.pdf`. */
export const statementFilename = (orgSlug: string, year: number) => `statement-${orgSlug}-${year}.pdf`;

/**
 * The year-end statement as a PDF (pdfkit). A pure function of its data: the document's
 * creation date is the last gift's time, not the clock, and pdfkit derives the file ID from the
 * document info, so the same data always gives the same bytes (the emailed attachment and the
 * donor's download are one file). Written in the statement's language (`data.locale`). In test
 * mode (sandbox payments, by default) its title and a boxed line at the top say so: no real
 * payment was taken, so it must not pass for a tax receipt.
 */
export function renderStatementPdf(
  data: StatementData,
  { testMode = getEnv().paymentsMode === "sandbox" }: { testMode?: boolean } = {},
): Promise<Buffer> {
  const locale = data.locale;
  const t = translator(locale, "emails");
  const money = (minor: number, currency: string) => pdfText(formatMoney(minor, currency, { locale: intlTag(locale) }));
  const year = String(data.year);
  const lastGift = data.gifts.reduce(
    (latest, g) => (g.date > latest ? g.date : latest),
    data.gifts[0]?.date ?? new Date(Date.UTC(data.year, 11, 31)),
  );
  const orgName = pdfText(orgDisplayName(data.org));
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: pdfText(
        testMode
          ? t("common.testModeSubject", { subject: t("statementPdf.title", { year, org: orgDisplayName(data.org) }) })
          : t("statementPdf.title", { year, org: orgDisplayName(data.org) }),
      ),
      Author: orgName,
      Subject: pdfText(t("statementPdf.subject", { donor: donorDisplayName(data.donor), year })),
      Creator: "Goodfund",
      Producer: "Goodfund",
      CreationDate: lastGift,
      ModDate: lastGift,
    },
  });
  const done = pdfBytes(doc);

  const width = doc.page.width - 2 * MARGIN;
  const left = MARGIN;

  // Test mode: a red box above everything else.
  if (testMode) {
    const note = pdfText(t("statementPdf.testMode"));
    doc.font(BOLD).fontSize(10);
    const height = doc.heightOfString(note, { width: width - 16 }) + 12;
    doc.rect(left, MARGIN, width, height).lineWidth(1).strokeColor("#b42318").stroke();
    doc.fillColor("#b42318").text(note, left + 8, MARGIN + 6, { width: width - 16 });
    doc.y = MARGIN + height + 14;
  }

  // The organization.
  doc
    .fillColor(INK)
    .font(BOLD)
    .fontSize(18)
    .text(orgName, left, testMode ? doc.y : MARGIN, { width });
  doc.font(FONT).fontSize(10).fillColor(MUTED);
  if (data.org.legalName && data.org.legalName !== data.org.name) doc.text(pdfText(data.org.name), { width });
  if (data.org.address) doc.text(pdfText(data.org.address), { width });
  if (data.org.taxId) doc.text(pdfText(t("statementPdf.taxId", { taxId: data.org.taxId })), { width });

  // The statement and its donor.
  doc
    .moveDown(1.5)
    .fillColor(INK)
    .font(BOLD)
    .fontSize(15)
    .text(pdfText(t("statementPdf.heading", { year })), left, doc.y, { width });
  doc
    .moveDown(0.5)
    .font(FONT)
    .fontSize(11)
    .text(pdfText(t("statementPdf.preparedFor", { donor: donorDisplayName(data.donor) })), { width });
  if (data.donor.email && donorDisplayName(data.donor) !== data.donor.email)
    doc.fillColor(MUTED).text(pdfText(data.donor.email), { width });
  doc
    .moveDown(0.5)
    .fillColor(MUTED)
    .fontSize(10)
    .text(pdfText(t("statementPdf.period", { year })), { width });

  // The gifts.
  // Date, receipt number, campaign, amount, deductible amount.
  const cols = { date: left, receipt: left + 88, campaign: left + 170, amount: left + width - 190, deductible: left + width - 90 };
  const campaignWidth = cols.amount - cols.campaign - 12;
  const header = () => {
    doc.fillColor(MUTED).font(BOLD).fontSize(9);
    const y = doc.y;
    doc.text(pdfText(t("statementPdf.date")), cols.date, y, { width: 84, lineBreak: false });
    doc.text(pdfText(t("statementPdf.receipt")), cols.receipt, y, { width: 78, lineBreak: false });
    doc.text(pdfText(t("statementPdf.campaign")), cols.campaign, y, { width: campaignWidth, lineBreak: false });
    doc.text(pdfText(t("statementPdf.amount")), cols.amount, y, { width: 90, align: "right", lineBreak: false });
    doc.text(pdfText(t("statementPdf.deductible")), cols.deductible, y, { width: 90, align: "right", lineBreak: false });
    doc.y = y + 14;
    doc
      .moveTo(left, doc.y - 3)
      .lineTo(left + width, doc.y - 3)
      .lineWidth(0.5)
      .strokeColor("#999999")
      .stroke();
    doc.y += 3;
  };
  doc.moveDown(1.5);
  header();
  doc.font(FONT).fontSize(10).fillColor(INK);
  for (const gift of data.gifts) {
    const title = pdfText(gift.campaignTitle);
    const rowHeight = Math.max(doc.heightOfString(title, { width: campaignWidth }), 12) + 6;
    if (doc.y + rowHeight > doc.page.height - MARGIN - 40) {
      doc.addPage();
      header();
      doc.font(FONT).fontSize(10).fillColor(INK);
    }
    const y = doc.y;
    doc.text(pdfText(statementDate(gift.date, locale, data.org.timeZone)), cols.date, y, { width: 84, lineBreak: false });
    doc.text(pdfText(gift.receiptNumber ?? "—"), cols.receipt, y, { width: 78, lineBreak: false });
    doc.text(title, cols.campaign, y, { width: campaignWidth });
    doc.text(money(gift.amountCents, gift.currency), cols.amount, y, { width: 90, align: "right", lineBreak: false });
    doc.text(money(gift.deductibleCents, gift.currency), cols.deductible, y, { width: 90, align: "right", lineBreak: false });
    doc.y = y + rowHeight;
  }

  // The totals, one line per currency.
  if (doc.y + 30 * data.totals.length > doc.page.height - MARGIN - 40) doc.addPage();
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .lineWidth(0.5)
    .strokeColor("#999999")
    .stroke();
  doc.y += 6;
  const count = data.gifts.length;
  for (const total of data.totals) {
    const y = doc.y;
    doc
      .font(BOLD)
      .fontSize(11)
      .fillColor(INK)
      .text(pdfText(t("statementPdf.total", { year, count })), left, y, { width: width - 120, lineBreak: false });
    doc.text(money(total.amountCents, total.currency), cols.deductible - 30, y, {
      width: 120,
      align: "right",
      lineBreak: false,
    });
    doc.y = y + 18;
    const dy = doc.y;
    doc
      .font(FONT)
      .fontSize(10)
      .text(pdfText(t("statementPdf.totalDeductible")), left, dy, { width: width - 120, lineBreak: false })
      .text(money(total.deductibleCents, total.currency), cols.deductible - 30, dy, { width: 120, align: "right", lineBreak: false });
    doc.y = dy + 18;
  }

  // The organization's own words on deductibility.
  if (data.org.receiptStatement) {
    doc.moveDown(1.5).font(FONT).fontSize(10).fillColor(INK).text(pdfText(data.org.receiptStatement), left, doc.y, { width });
  }
  doc
    .moveDown(1.5)
    .fontSize(9)
    .fillColor(MUTED)
    .text(pdfText(t("statementPdf.thanks", { org: orgDisplayName(data.org).replace(/\.+$/, "") })), left, doc.y, {
      width,
    });

  // Page numbers, once every page exists.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin; without this pdfkit would start a new page for it.
    doc.page.margins.bottom = 0;
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        pdfText(t("statementPdf.footer", { org: orgName, year, page: i + 1, pages: range.count })),
        left,
        doc.page.height - MARGIN + 16,
        {
          width,
          align: "center",
          lineBreak: false,
        },
      );
  }
  doc.end();
  return done;
}
