import { execFileSync } from "node:child_process";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { rowsOf } from "./records";

/**
 * Everything the test database holds, as text: every row of every table, and on Postgres the
 * output of `pg_dump` too (what a backup would contain). `tables` must be among them, so a
 * renamed table can't make a "no secret in the dump" check pass by dumping nothing.
 */
export async function databaseDump(tables: string[]): Promise<string> {
  const found = await rowsOf<{ schema: string; name: string }>(sql`
    select table_schema as schema, table_name as name from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`);
  expect(found.map((t) => t.name)).toEqual(expect.arrayContaining(tables));
  const parts: string[] = [];
  for (const t of found) {
    const rows = await rowsOf<{ row: string }>(sql.raw(`select t::text as row from "${t.schema}"."${t.name}" t`));
    parts.push(`-- ${t.schema}.${t.name}`, ...rows.map((r) => r.row));
  }
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const u = new URL(url);
    const args = [
      "-h",
      u.hostname,
      "-p",
      u.port || "5432",
      "-U",
      decodeURIComponent(u.username || "postgres"),
      decodeURIComponent(u.pathname.slice(1)),
    ];
    const out = execFileSync("pg_dump", args, {
      maxBuffer: 1 << 30,
      env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) },
    }).toString("utf8");
    for (const t of tables) expect(out).toContain(`CREATE TABLE public.${t}`);
    parts.push(out);
  }
  return parts.join("\n");
}
