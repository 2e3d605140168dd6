import { emailSubject as subjectOf, isEmailTemplate } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";

/**
 * The subject line of an outbox email without rendering its body (the list shows many): the
 * subject it is sent with, "[Test mode] " included on a sandbox install. Null for a payload that
 * names no known template or whose props no longer make one (a sign-in link purged once sent).
 */
export function emailSubject(payload: Record<string, unknown>): string | null {
  if (!isEmailTemplate(payload.template)) return null;
  try {
    return subjectOf(payload as Pick<EmailMessage, "template" | "props">);
  } catch {
    return null;
  }
}
