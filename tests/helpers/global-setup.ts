/** Migrates the shared Postgres test database once; PGlite files migrate their own in-memory one. */
export default async function setup() {
  if (!process.env.TEST_DATABASE_URL) return;
  process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
  process.env.NEXTAUTH_SECRET ??= "test-secret-for-goodfund-only-0123456789";
  process.env.PAYMENTS_MODE ??= "sandbox";
  process.env.SECRETS_ENCRYPTION_KEY ??= "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=";
  const { runMigrations } = await import("../../db/migrate");
  await runMigrations();
}
