import QRCode from "qrcode";

/** What a ticket's QR code carries: its code, nothing else (the door's scanner posts it as is). */
const OPTIONS = { errorCorrectionLevel: "M" as const, margin: 2, width: 240 };

/** The ticket's QR code as a PNG (for email attachments and the ticket PDF). */
export function ticketQrPng(code: string): Promise<Buffer> {
  return QRCode.toBuffer(code, { ...OPTIONS, type: "png" });
}

/** The ticket's QR code as a `data:image/png` URL (for the thank-you page). */
export function ticketQrDataUrl(code: string): Promise<string> {
  return QRCode.toDataURL(code, OPTIONS);
}
