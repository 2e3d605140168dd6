import type { DbOrTx } from "@/db";
import { isErasedEmail } from "@/lib/donor-erasure";
import { enqueueAll, type OutboxRow } from "@/lib/outbox/enqueue";
import { PURGE_WHEN_SENT } from "@/lib/outbox/purge";
import type { EmailPropsByTemplate, EmailTemplate } from "./types";

/** An email to queue; `dedupeKey` makes it at most once. */
type QueuedEmailOf<T extends EmailTemplate> = {
  template: T;
  to: string;
  props: EmailPropsByTemplate[T];
  dedupeKey: string;
  orgId: string | null;
  /** Its props carry a secret (a sign-in link): dropped from the outbox once it is sent. */
  purgePropsWhenSent?: boolean;
};
export type QueuedEmail = { [T in EmailTemplate]: QueuedEmailOf<T> }[EmailTemplate];

const outboxRow = (email: QueuedEmail): OutboxRow => ({
  kind: "email",
  dedupeKey: `email:${email.dedupeKey}`,
  orgId: email.orgId,
  payload: {
    template: email.template,
    to: email.to,
    props: email.props,
    ...(email.purgePropsWhenSent ? { [PURGE_WHEN_SENT]: ["props"] } : {}),
  },
});

/** Queues one email in the caller's transaction; false if it was already queued (or goes to an erased donor). */
export async function enqueueEmail<T extends EmailTemplate>(db: DbOrTx, email: QueuedEmailOf<T>): Promise<boolean> {
  if (isErasedEmail(email.to)) return false;
  return (await enqueueAll(db, [outboxRow(email as QueuedEmail)])) > 0;
}

/** Queues several emails in one statement; answers how many were new. An erased donor's placeholder address gets none. */
export function enqueueEmails(db: DbOrTx, emails: QueuedEmail[]): Promise<number> {
  return enqueueAll(db, emails.filter((e) => !isErasedEmail(e.to)).map(outboxRow));
}
