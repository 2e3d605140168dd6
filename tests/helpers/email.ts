import { and, eq, inArray, sql } from "drizzle-orm";
import { outbox } from "@/db/schema";
import { renderEmail, type RenderedEmail } from "@/lib/email/render";
import { deliverDueRows } from "@/lib/jobs/worker";
import type { EmailMessage, EmailPropsByTemplate, EmailTemplate } from "@/lib/email/types";
import { testDb } from "./db";

/** One template rendered for zoe@example.org, as a Stripe-mode install sends it unless `testMode`. */
export const renderTemplate = <T extends EmailTemplate>(
  template: T,
  props: EmailPropsByTemplate[T],
  testMode = false,
): Promise<RenderedEmail> => renderEmail({ template, to: "zoe@example.org", props } as EmailMessage<T>, { testMode });

/**
 * Runs the worker on the donor sign-in link requests still queued (`donor-sign-in` outbox rows:
 * POST /api/public/orgs/:orgSlug/donor-sessions answers before looking the address up), only
 * those for `email` when given, and waits until they are all handled: another file's worker
 * sharing the database may have claimed some. Answers how many there were.
 */
export async function handleSignInRequests(email?: string): Promise<number> {
  const db = await testDb();
  const pending = await db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, "donor-sign-in"),
        eq(outbox.status, "PENDING"),
        email === undefined ? undefined : sql`${outbox.payload}->>'email' = ${email.trim().toLowerCase()}`,
      ),
    );
  const ids = pending.map((r) => r.id);
  if (ids.length === 0) return 0;
  for (let attempt = 0; attempt < 100; attempt++) {
    // The worker's outbox pass on those rows only (its other passes work on the whole database).
    await deliverDueRows(db, { ids });
    const left = await db
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(inArray(outbox.id, ids), eq(outbox.status, "PENDING")));
    if (left.length === 0) return ids.length;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`donor sign-in requests ${ids.join(", ")} are still pending`);
}

/** The sign-in emails queued to an address (its pending link requests handled first), as messages to send, newest last. */
export async function queuedSignInEmails(to: string): Promise<EmailMessage<"donor-sign-in">[]> {
  await handleSignInRequests(to);
  const db = await testDb();
  const rows = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = 'donor-sign-in'`, sql`${outbox.payload}->>'to' = ${to}`))
    .orderBy(outbox.id);
  return rows.map((r) => r.payload as unknown as EmailMessage<"donor-sign-in">);
}
