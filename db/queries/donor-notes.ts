import { desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donorNotes, users, type DonorNote } from "@/db/schema";
import { offsetPage, type OffsetPage } from "./rows";

export type DonorNoteRow = { note: DonorNote; author: { id: string; name: string | null; email: string } | null };

const noteColumns = { note: donorNotes, author: { id: users.id, name: users.name, email: users.email } };

export async function insertDonorNote(
  db: DbOrTx,
  note: { id: string; orgId: string; donorId: string; authorId: string | null; body: string },
): Promise<DonorNoteRow> {
  const [row] = await db.insert(donorNotes).values(note).returning();
  const [author] = note.authorId
    ? await db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, note.authorId))
    : [];
  return { note: row, author: author ?? null };
}

/** A page of a donor's notes, newest first, with their authors. */
export async function listDonorNotes(db: DbOrTx, donorId: string, page: OffsetPage): Promise<{ rows: DonorNoteRow[]; total: number }> {
  const where = eq(donorNotes.donorId, donorId);
  const query = db
    .select(noteColumns)
    .from(donorNotes)
    .leftJoin(users, eq(users.id, donorNotes.authorId))
    .where(where)
    .orderBy(desc(donorNotes.createdAt), desc(donorNotes.id));
  const { rows, total } = await offsetPage(db, query.$dynamic(), { table: donorNotes, where }, page);
  return { rows: rows.map((r) => ({ note: r.note, author: r.author?.id ? r.author : null })), total };
}
