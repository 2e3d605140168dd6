import { Resend } from "resend";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { renderEmail } from "./render";
import type { EmailMessage } from "./types";

export type SendResult = { provider: "resend" | "outbox"; id: string | null };

/** A file sent with an email (a year-end statement's PDF): rendered at send time, never stored in the outbox. */
export type EmailAttachment = { filename: string; content: Buffer; contentType?: string; contentId?: string };

/** A request to Resend that did not send the email; thrown so the worker retries it later. */
export class EmailSendError extends Error {
  constructor(
    readonly code: string,
    readonly statusCode: number | null,
    message: string,
  ) {
    super(message);
    this.name = "EmailSendError";
  }
}

// Bounds one send, so a hung connection can't outlive the worker's lease on the outbox row.
const SEND_TIMEOUT_MS = 15_000;

/** The recipient's domain, the most a log line may say about an address. */
export function recipientDomain(to: string): string {
  const at = to.lastIndexOf("@");
  return at >= 0 ? to.slice(at + 1).toLowerCase() : "unknown";
}

/**
 * Renders and sends one email. With `RESEND_API_KEY` it goes through the Resend API (base URL
 * `RESEND_BASE_URL`, passed to the SDK explicitly) with `idempotencyKey` as the `Idempotency-Key`
 * header, so a retry of the same key within Resend's 24-hour window never sends a second copy.
 * A Resend error is thrown (the SDK returns it instead of throwing). Without a key nothing leaves
 * the process: the email stays in the outbox for the dashboard to show. `attachments` go to
 * Resend as `attachments: [{ filename, content }]` (base64 on the wire).
 */
export async function sendEmail(
  message: EmailMessage,
  { idempotencyKey, attachments = [] }: { idempotencyKey: string; attachments?: EmailAttachment[] },
): Promise<SendResult> {
  const env = getEnv();
  // Rendered in both modes, so a message that can't be rendered fails here rather than in the dashboard.
  const { subject, html, text } = await renderEmail(message);
  if (!env.RESEND_API_KEY) {
    log.info("email kept in outbox (no RESEND_API_KEY)", { template: message.template, toDomain: recipientDomain(message.to) });
    return { provider: "outbox", id: null };
  }

  const resend = new Resend(env.RESEND_API_KEY, { baseUrl: (env.RESEND_BASE_URL ?? "https://api.resend.com").replace(/\/+$/, "") });
  const { data, error } = await resend.emails.send(
    {
      from: env.EMAIL_FROM,
      to: message.to,
      subject,
      html,
      text,
      ...(attachments.length > 0
        ? {
            attachments: attachments.map((a) => ({
              filename: a.filename,
              content: a.content,
              // An inline image the HTML shows as `cid:…` (a ticket's QR code).
              ...(a.contentId ? { contentId: a.contentId, contentType: a.contentType } : {}),
            })),
          }
        : {}),
    },
    { idempotencyKey, signal: AbortSignal.timeout(SEND_TIMEOUT_MS) },
  );
  if (error) {
    // Same key, different payload: Resend already accepted this email under this key (the payload
    // changed between tries, e.g. a template update). Sending again would be the duplicate we avoid.
    if (error.name === "invalid_idempotent_request") {
      log.warn("email already sent under this idempotency key", { template: message.template, toDomain: recipientDomain(message.to) });
      return { provider: "resend", id: null };
    }
    throw new EmailSendError(error.name, error.statusCode, `Resend ${error.statusCode ?? "request"} ${error.name}: ${error.message}`);
  }
  return { provider: "resend", id: data?.id ?? null };
}
