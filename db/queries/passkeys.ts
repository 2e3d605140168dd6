import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { passkeys, type Passkey } from "@/db/schema";

/** A user's passkeys, oldest first. */
export function listPasskeys(db: DbOrTx, userId: string): Promise<Passkey[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

/** One of the user's passkeys (another user's answers undefined). */
export async function findPasskey(db: DbOrTx, userId: string, id: string): Promise<Passkey | undefined> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .limit(1);
  return row;
}

/** The passkey with this credential ID, whoever it belongs to. */
export async function findPasskeyByCredential(db: DbOrTx, credentialId: string): Promise<Passkey | undefined> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId)).limit(1);
  return row;
}
