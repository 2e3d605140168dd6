import { cpSync, mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, inject } from "vitest";

// Every test process starts from the same environment; each file gets its own database when on
// PGlite (a copy of the migrated template tests/helpers/global-setup.ts made, else a new one in
// memory) and shares the migrated test database when TEST_DATABASE_URL is set.
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
  const template = inject("pgliteTemplate");
  if (template) {
    const dir = mkdtempSync(path.join(path.dirname(template), "goodfund-test-"));
    cpSync(template, dir, { recursive: true });
    process.env.PGLITE_DIR = dir;
    // After the file's own hooks: close its database, then remove its files.
    afterAll(async () => {
      const { closeDb } = await import("@/db");
      await closeDb();
      rmSync(dir, { recursive: true, force: true });
    });
  } else process.env.PGLITE_DIR = "memory://";
}
