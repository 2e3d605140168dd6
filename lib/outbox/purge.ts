import { sql, type SQL } from "drizzle-orm";
import { outbox } from "@/db/schema";

/**
 * A row whose payload holds something that must not outlive its sending (a sign-in link) lists
 * those keys under `purgeWhenSent`; the update that ends the row, SENT or FAILED for good (no
 * attempt will read them again), drops them and leaves `purged: true`, so the secret is never at
 * rest once the row is done (nor in later dumps).
 */
export const PURGE_WHEN_SENT = "purgeWhenSent";

/**
 * The payload a row keeps once done (SENT, or FAILED for good): itself, or without the keys it
 * listed under `purgeWhenSent`.
 */
export function payloadOnceDone(): SQL {
  return sql`case when jsonb_typeof(${outbox.payload}->${PURGE_WHEN_SENT}) = 'array'
    then (${outbox.payload} - array(select jsonb_array_elements_text(${outbox.payload}->${PURGE_WHEN_SENT})) - ${PURGE_WHEN_SENT}::text) || '{"purged": true}'::jsonb
    else ${outbox.payload} end`;
}
