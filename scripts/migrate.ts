// `npm run db:migrate`: apply pending migrations to DATABASE_URL (or the embedded database;
// stop the server first: PGlite's directory must never be open in two processes).
import { closeDb } from "@/db";
import { runMigrations } from "@/db/migrate";

runMigrations()
  .then(() => closeDb())
  .then(
    () => console.log("Migrations applied."),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
