import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { recoveryCodes } from "@/db/schema";
import { hashRecoveryCode, newRecoveryCodes } from "./totp-code";

/**
 * Replaces a user's recovery codes with ten new ones (the old ones stop working) and answers
 * them: the only time they are seen, since only their hashes are kept. In the caller's transaction.
 */
export async function replaceRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  return codes;
}
