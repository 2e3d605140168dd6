import { bigint, bigserial, boolean, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamptz } from "./columns";
import { users } from "./auth";

/**
 * A user's authenticator app (TOTP, RFC 6238). The secret is stored encrypted (AES-256-GCM under
 * SECRETS_ENCRYPTION_KEY, bound to the user's ID). `confirmedAt` is null while enrolment waits
 * for its first code; `lastUsedStep` is the 30-second time step of the last code accepted, so a
 * code (or an older one) is never accepted twice.
 */
export const userTotp = pgTable("user_totp", {
  userId: text()
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text().notNull(),
  confirmedAt: timestamptz(),
  lastUsedStep: bigint({ mode: "number" }),
  createdAt: createdAt(),
});

/** Single-use recovery codes, stored as SHA-256 hashes (each code has 50 random bits). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: belongsTo(() => users.id),
    codeHash: text().notNull(),
    usedAt: timestamptz(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_key").on(t.userId, t.codeHash)],
);

/** WebAuthn credentials (passkeys). The public key is not a secret; the counter detects cloned authenticators. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text().primaryKey(),
    userId: belongsTo(() => users.id),
    /** The credential ID, base64url, as the authenticator gave it. */
    credentialId: text().notNull(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    counter: bigint({ mode: "number" }).notNull().default(0),
    transports: text().array().notNull().default([]),
    deviceType: text().notNull(),
    backedUp: boolean().notNull().default(false),
    name: text().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamptz(),
  },
  (t) => [uniqueIndex("passkeys_credential_key").on(t.credentialId), index("passkeys_user_idx").on(t.userId)],
);

/**
 * WebAuthn challenges waiting for their answer: one row a ceremony, consumed (deleted) by the
 * answer, whichever instance receives it. `userId` is null for a passkey sign-in, where the
 * user is known only from the credential.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: text().primaryKey(),
    userId: text().references(() => users.id, { onDelete: "cascade" }),
    /** "registration", "second-factor" or "sign-in". */
    purpose: text().notNull(),
    challenge: text().notNull(),
    expiresAt: timestamptz().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("webauthn_challenges_expires_idx").on(t.expiresAt)],
);

/**
 * Signed-in sessions: a session JWT's `sid` names its row. Revoking sets `revokedAt`, after
 * which every token carrying that `sid` answers 401. Device and network are coarse
 * descriptions derived offline from the User-Agent and the client IP (never the full address).
 */
export const userSessions = pgTable(
  "user_sessions",
  {
    id: text().primaryKey(),
    userId: belongsTo(() => users.id),
    /** How the first factor was given: email, github, google, oidc, passkey, or api (a token from the challenge endpoint). */
    method: text().notNull(),
    userAgent: text(),
    /** "Chrome on macOS". */
    device: text().notNull(),
    /** "203.0.113.0/24", "Local network", "This computer". */
    network: text().notNull(),
    createdAt: createdAt(),
    lastSeenAt: createdAt(),
    twoFactorAt: timestamptz(),
    revokedAt: timestamptz(),
  },
  (t) => [index("user_sessions_user_idx").on(t.userId, t.lastSeenAt)],
);

/** Wrong second-factor codes, counted per user over a sliding window (kept in Postgres so the limit holds on every instance). */
export const twoFactorFailures = pgTable(
  "two_factor_failures",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    userId: belongsTo(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index("two_factor_failures_user_idx").on(t.userId, t.createdAt)],
);

export type UserTotp = typeof userTotp.$inferSelect;
export type Passkey = typeof passkeys.$inferSelect;
export type UserSession = typeof userSessions.$inferSelect;
