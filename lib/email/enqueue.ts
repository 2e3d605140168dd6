import type { DbOrTx } from "@/db";
import { enqueue } from "@/lib/outbox/enqueue";
import type { EmailPropsByTemplate, EmailTemplate } from "./types";

/** Queues one email in the caller's transaction; `dedupeKey` makes it at most once. */
export function enqueueEmail<T extends EmailTemplate>(
  db: DbOrTx,
  email: { template: T; to: string; props: EmailPropsByTemplate[T]; dedupeKey: string; orgId: string | null },
): Promise<boolean> {
  return enqueue(db, {
    kind: "email",
    dedupeKey: `email:${email.dedupeKey}`,
    orgId: email.orgId,
    payload: { template: email.template, to: email.to, props: email.props },
  });
}
