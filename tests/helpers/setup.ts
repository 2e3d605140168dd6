// Every test process starts from the same environment; each file gets its own database when on
// PGlite (in memory) and shares the migrated test database when TEST_DATABASE_URL is set.
process.env.NEXTAUTH_SECRET ??= "test-secret-for-goodfund-only-0123456789";
process.env.LOG_LEVEL ??= "silent";
process.env.PROCESSOR_WEBHOOK_SECRET ??= "whsec_test_goodfund_0123456789";
delete process.env.STRIPE_SECRET_KEY;
process.env.PAYMENTS_MODE ??= "sandbox";
process.env.SECRETS_ENCRYPTION_KEY ??= "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=";
process.env.APP_URL ??= "http://localhost:3000";
if (process.env.TEST_DATABASE_URL) process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
else {
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = "memory://";
}
