import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { donorSignInLinks, donors, type Donor, type Organization } from "@/db/schema";
import { donorSignInTokenHash } from "./request-sign-in-link";

/** The link of `org` that `token` names, if it is unused and has not expired. */
const usableLink = (org: Pick<Organization, "id">, token: string) =>
  and(
    eq(donorSignInLinks.tokenHash, donorSignInTokenHash(token)),
    eq(donorSignInLinks.orgId, org.id),
    isNull(donorSignInLinks.usedAt),
    gt(donorSignInLinks.expiresAt, sql`now()`),
  );

/**
 * Uses a donor sign-in link of `org`: marks it used in one statement (`used_at` is set only
 * where it was null and the link has not expired, so two clicks racing each other get it once)
 * and answers the donor it signs in, or null when the token is unknown, of another
 * organization, used, expired, or its donor was erased since.
 */
export async function consumeDonorSignInLink(db: Db, org: Pick<Organization, "id">, token: string): Promise<Donor | null> {
  if (!token || token.length > 200) return null;
  const [link] = await db
    .update(donorSignInLinks)
    .set({ usedAt: sql`now()` })
    .where(usableLink(org, token))
    .returning({ donorId: donorSignInLinks.donorId });
  if (!link) return null;
  const [donor] = await db
    .select()
    .from(donors)
    .where(and(eq(donors.id, link.donorId), eq(donors.orgId, org.id), isNull(donors.erasedAt)))
    .limit(1);
  return donor ?? null;
}

/** Whether a token names a link of `org` that can still be used (the sign-in page's first look; it changes nothing). */
export async function isDonorSignInLinkUsable(db: Db, org: Pick<Organization, "id">, token: string): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const [link] = await db.select({ id: donorSignInLinks.id }).from(donorSignInLinks).where(usableLink(org, token)).limit(1);
  return link !== undefined;
}
