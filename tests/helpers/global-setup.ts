import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded database's directory that each test file copies (tests/helpers/setup.ts); "" on Postgres. */
    pgliteTemplate: string;
  }
}

/**
 * Migrates the test database once before the files run.
 * - Postgres (TEST_DATABASE_URL): the shared test database itself.
 * - PGlite: a template directory, on tmpfs where the machine has one, that every file copies
 *   into a fresh directory of its own. Creating an empty PGlite database and migrating it takes
 *   a few seconds of CPU; copying the migrated files and opening them takes a fraction of one.
 *   Each file still gets a database no other file touches.
 */
export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  process.env.NEXTAUTH_SECRET ??= "test-secret-for-goodfund-only-0123456789";
  process.env.PAYMENTS_MODE ??= "sandbox";
  process.env.SECRETS_ENCRYPTION_KEY ??= "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=";
  process.env.LOG_LEVEL ??= "silent";
  const { runMigrations } = await import("../../db/migrate");
  if (process.env.TEST_DATABASE_URL) {
    process.env.DATABASE_URL = process.env.TEST_DATABASE_URL;
    await runMigrations();
    project.provide("pgliteTemplate", "");
    return undefined;
  }
  const template = mkdtempSync(path.join(scratchDir(), "goodfund-test-template-"));
  delete process.env.DATABASE_URL;
  process.env.PGLITE_DIR = template;
  try {
    await runMigrations();
  } finally {
    const { closeDb } = await import("../../db");
    await closeDb();
    delete process.env.PGLITE_DIR;
  }
  project.provide("pgliteTemplate", template);
  return () => rmSync(template, { recursive: true, force: true });
}

/** Memory-backed files where the machine has them (Linux's /dev/shm), else the temporary directory. */
function scratchDir(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
}
