import { and, eq, sql } from "drizzle-orm";
import type { Adapter, AdapterAccount, AdapterUser, VerificationToken } from "next-auth/adapters";
import { getDb, type DbOrTx } from "@/db";
import { accounts, users, verificationTokens, type User } from "@/db/schema";
import { newId } from "@/lib/ids";

function toAdapterUser(u: User): AdapterUser {
  return { id: u.id, email: u.email, name: u.name, image: u.image, emailVerified: u.emailVerifiedAt };
}

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

/**
 * The smallest next-auth v4 adapter for email sign-in and OAuth with JWT sessions: users,
 * verification tokens (next-auth hands us their hash) and OAuth account links. There are no
 * session methods because sessions are JWTs, never rows. Users are matched by email without
 * regard to case, like the API's token provisioning, so someone invited by email before their
 * first sign-in is the same user afterwards.
 */
export function drizzleAdapter(dbOf: () => Promise<DbOrTx> = getDb): Adapter {
  return {
    async createUser(data: Omit<AdapterUser, "id">) {
      const db = await dbOf();
      const [created] = await db
        .insert(users)
        .values({
          id: newId("usr"),
          email: data.email,
          name: data.name ?? null,
          image: data.image ?? null,
          emailVerifiedAt: data.emailVerified ?? null,
        })
        .onConflictDoNothing()
        .returning();
      if (created) return toAdapterUser(created);
      // The email arrived concurrently (another sign-in or an invitation): that user it is.
      const [existing] = await db.select().from(users).where(byEmail(data.email)).limit(1);
      return toAdapterUser(existing);
    },

    async getUser(id) {
      const db = await dbOf();
      const [u] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return u ? toAdapterUser(u) : null;
    },

    async getUserByEmail(email) {
      const db = await dbOf();
      const [u] = await db.select().from(users).where(byEmail(email)).limit(1);
      return u ? toAdapterUser(u) : null;
    },

    async updateUser(data) {
      const db = await dbOf();
      const patch: Partial<typeof users.$inferInsert> = {};
      if (data.name !== undefined) patch.name = data.name;
      if (data.image !== undefined) patch.image = data.image;
      if (data.emailVerified !== undefined) patch.emailVerifiedAt = data.emailVerified;
      const [u] = await db
        .update(users)
        .set({ ...patch, updatedAt: sql`now()` })
        .where(eq(users.id, data.id))
        .returning();
      if (!u) throw new Error("User not found");
      return toAdapterUser(u);
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const db = await dbOf();
      const [row] = await db
        .select({ user: users })
        .from(accounts)
        .innerJoin(users, eq(users.id, accounts.userId))
        .where(and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId)))
        .limit(1);
      return row ? toAdapterUser(row.user) : null;
    },

    async linkAccount(account: AdapterAccount) {
      const db = await dbOf();
      // Only the identity is kept: with JWT sessions the provider's tokens are never used again.
      await db
        .insert(accounts)
        .values({ userId: account.userId, type: account.type, provider: account.provider, providerAccountId: account.providerAccountId })
        .onConflictDoNothing();
    },

    async createVerificationToken(token: VerificationToken) {
      const db = await dbOf();
      await db.insert(verificationTokens).values(token);
      return token;
    },

    // Single use: the row is deleted as it is read, so a link works once even if clicked twice at once.
    async useVerificationToken({ identifier, token }) {
      const db = await dbOf();
      const [row] = await db
        .delete(verificationTokens)
        .where(and(eq(verificationTokens.identifier, identifier), eq(verificationTokens.token, token)))
        .returning();
      // Expired tokens are cleaned up whenever a link is used; next-auth rejects an expired one itself.
      await db.delete(verificationTokens).where(sql`${verificationTokens.expires} < now()`);
      return row ?? null;
    },
  };
}
