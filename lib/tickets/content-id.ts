/** The Content-ID of a ticket's QR code image in an email (`<img src="cid:…">`). */
export const ticketContentId = (code: string) => `ticket-${code}@goodfund`;
