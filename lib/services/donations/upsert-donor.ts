import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import type { Donor } from "@/db/schema";
import { newId } from "@/lib/ids";

/**
 * The organization's donor for an email (case-insensitive), created on first gift. Names given
 * now replace the stored ones (donors fix typos); totals are never touched here.
 */
export async function upsertDonor(db: DbOrTx, orgId: string, email: string, firstName: string | null, lastName: string | null): Promise<Pick<Donor, "id">> {
  const rows = await db.execute<{ id: string }>(sql`
    insert into donors (id, org_id, email, first_name, last_name)
    values (${newId("dnr")}, ${orgId}, ${email}, ${firstName}, ${lastName})
    on conflict (org_id, lower(email)) do update
      set first_name = coalesce(excluded.first_name, donors.first_name),
          last_name = coalesce(excluded.last_name, donors.last_name),
          updated_at = now()
    returning id`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { id: string }[] }).rows;
  return list[0];
}
