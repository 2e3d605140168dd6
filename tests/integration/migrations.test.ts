import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Several instances starting at once against a fresh Postgres database must take turns applying
// migrations: all succeed, and each migration is recorded exactly once.
const root = path.resolve(__dirname, "../..");
const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = `goodfund_mig_${Date.now()}_${process.pid}`;
const dbUrl = Object.assign(new URL(base), { pathname: `/${dbName}` }).toString();
const admin = postgres(Object.assign(new URL(base), { pathname: "/postgres" }).toString(), { max: 1, onnotice: () => {} });

beforeAll(async () => {
  await admin.unsafe(`create database ${dbName}`);
});
afterAll(async () => {
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.end();
});

function migrate(): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: dbUrl };
    delete env.VITEST;
    const p = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/migrate.ts"], { cwd: root, env });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("exit", (code) => resolve({ code, out }));
  });
}

describe("npm run db:migrate", () => {
  it("applies every migration once when three instances start at the same time", async () => {
    const results = await Promise.all([migrate(), migrate(), migrate()]);
    for (const r of results) expect(r.code, r.out).toBe(0);
    const journal = JSON.parse(readFileSync(path.join(root, "db/migrations/meta/_journal.json"), "utf8"));
    const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
    try {
      const [{ n }] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(n).toBe(journal.entries.length);
      const tables = await sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`;
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(["campaigns", "donations", "donors", "memberships", "organizations", "outbox", "processed_events", "users"]),
      );
    } finally {
      await sql.end();
    }
  }, 60_000);
});
