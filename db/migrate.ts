import { getEnv } from "@/lib/env";
import { getDb, MIGRATIONS_FOLDER } from "./index";

// Any constant works; it only has to be the same for every instance of the app.
const MIGRATION_LOCK_KEY = 720_431_977;

/**
 * Applies pending migrations. On Postgres several instances may start at once: a session-level
 * advisory lock on a dedicated single connection makes them take turns, and the ones that come
 * second find nothing left to do. PGlite is one process by construction.
 */
export async function runMigrations(): Promise<void> {
  const env = getEnv();
  if (env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const client = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      await client`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
      try {
        await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      }
    } finally {
      await client.end({ timeout: 5 });
    }
    return;
  }
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const db = await getDb();
  await migrate(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
}
