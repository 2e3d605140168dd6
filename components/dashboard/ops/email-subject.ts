import { subject as adminNotification } from "@/emails/admin-notification";
import { subject as disputeAlert } from "@/emails/dispute-alert";
import { subject as magicLink } from "@/emails/magic-link";
import { subject as milestone } from "@/emails/milestone";
import { subject as receipt } from "@/emails/receipt";
import { subject as tribute } from "@/emails/tribute";
import type { EmailPropsByTemplate, EmailTemplate } from "@/lib/email/types";

/**
 * The subject line of an outbox email without rendering its body (the list shows many), from
 * the same `subject` functions renderEmail uses. The compiler checks each template's props.
 */
const SUBJECTS: { [K in EmailTemplate]: (props: EmailPropsByTemplate[K]) => string } = {
  receipt,
  "admin-notification": adminNotification,
  tribute,
  milestone,
  "dispute-alert": disputeAlert,
  "magic-link": magicLink,
};

export function emailSubject(payload: Record<string, unknown>): string | null {
  const template = payload.template;
  if (typeof template !== "string" || !Object.hasOwn(SUBJECTS, template)) return null;
  try {
    return (SUBJECTS[template as EmailTemplate] as (p: unknown) => string)(payload.props);
  } catch {
    return null;
  }
}
