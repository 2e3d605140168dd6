import { pgEnum, pgTable, primaryKey, text, uniqueIndex, index } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamps, timestamptz } from "./columns";
import { sql } from "drizzle-orm";

export const users = pgTable(
  "users",
  {
    id: text().primaryKey(),
    email: text().notNull(),
    name: text(),
    image: text(),
    emailVerifiedAt: timestamptz(),
    /** Set while the user has a second factor (an authenticator app or a passkey); null otherwise. */
    twoFactorEnabledAt: timestamptz(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`)],
);

/** next-auth email sign-in tokens (magic links); only their hash is kept. */
export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text().notNull(),
    token: text().notNull(),
    expires: timestamptz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] }), index().on(t.expires)],
);

/**
 * OAuth identities (GitHub, Google) linked to a user. Only the provider's account ID is kept:
 * sessions are JWTs, so the provider's access and refresh tokens are never needed or stored.
 */
export const accounts = pgTable(
  "accounts",
  {
    userId: belongsTo(() => users.id),
    type: text().notNull(),
    provider: text().notNull(),
    providerAccountId: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerAccountId] }), index().on(t.userId)],
);

export const roleEnum = pgEnum("member_role", ["OWNER", "ADMIN", "MEMBER"]);
export type Role = (typeof roleEnum.enumValues)[number];

export type User = typeof users.$inferSelect;
export type Account = typeof accounts.$inferSelect;
