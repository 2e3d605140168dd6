import { beforeAll } from "vitest";
import { getDb, type Db } from "@/db";
import { runMigrations } from "@/db/migrate";

let ready: Promise<Db> | undefined;

/**
 * The test database, migrated: the file's own PGlite database (a copy of the template migrated
 * before the run, tests/helpers/setup.ts, so migrating finds nothing left to do), or the shared
 * Postgres one.
 */
export function testDb(): Promise<Db> {
  ready ??= (async () => {
    if (!process.env.TEST_DATABASE_URL) await runMigrations();
    return getDb();
  })();
  return ready;
}

// Open and migrate the file's database before its first test, under the hook timeout rather
// than inside the first test's own time limit.
beforeAll(async () => {
  await testDb();
}, 120_000);
