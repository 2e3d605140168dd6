import type { DbOrTx } from "@/db";
import { insertDonorNote, type DonorNoteRow } from "@/db/queries/donor-notes";
import type { Donor } from "@/db/schema";
import type { Actor } from "@/lib/actor";
import { newId } from "@/lib/ids";

/** A staff note on the donor, signed by the person who wrote it (an API key's note has no author). */
export function addDonorNote(db: DbOrTx, donor: Donor, actor: Actor | null, body: string): Promise<DonorNoteRow> {
  return insertDonorNote(db, {
    id: newId("dnote"),
    orgId: donor.orgId,
    donorId: donor.id,
    authorId: actor?.type === "user" ? actor.id : null,
    body,
  });
}
