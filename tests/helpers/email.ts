import { and, eq, sql } from "drizzle-orm";
import { outbox } from "@/db/schema";
import { renderEmail, type RenderedEmail } from "@/lib/email/render";
import type { EmailMessage, EmailPropsByTemplate, EmailTemplate } from "@/lib/email/types";
import { testDb } from "./db";

/** One template rendered for zoe@example.org, as a Stripe-mode install sends it unless `testMode`. */
export const renderTemplate = <T extends EmailTemplate>(
  template: T,
  props: EmailPropsByTemplate[T],
  testMode = false,
): Promise<RenderedEmail> => renderEmail({ template, to: "zoe@example.org", props } as EmailMessage<T>, { testMode });

/** The sign-in emails queued to an address, as messages to send, newest last. */
export async function queuedSignInEmails(to: string): Promise<EmailMessage<"donor-sign-in">[]> {
  const db = await testDb();
  const rows = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = 'donor-sign-in'`, sql`${outbox.payload}->>'to' = ${to}`))
    .orderBy(outbox.id);
  return rows.map((r) => r.payload as unknown as EmailMessage<"donor-sign-in">);
}
