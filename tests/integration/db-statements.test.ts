/**
 * The hot paths' statements (db/statements.ts), built once and run in whichever transaction they
 * are given, on the suite's database (Postgres or PGlite); and, on Postgres, that the app's
 * queries reach the server as named prepared statements (patches/drizzle-orm+0.45.4.patch with
 * the driver's `prepare` option, db/index.ts).
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { donationEvents, organizations } from "@/db/schema";
import { setTo, sqlStatement, statement } from "@/db/statements";
import { transaction } from "@/db/transaction";
import { newId } from "@/lib/ids";
import { testDb } from "../helpers/db";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const ph = sql.placeholder;

const renameOrg = statement(organizations, (db) =>
  db
    .update(organizations)
    .set({ name: setTo("name"), updatedAt: sql`now()` })
    .where(eq(organizations.id, ph("id")))
    .returning(),
);
const orgById = statement(organizations, (db) =>
  db
    .select()
    .from(organizations)
    .where(eq(organizations.id, ph("id"))),
);
const nameOf = sqlStatement<{ id: string }>(sql`select name as "theName" from ${organizations} where id = ${ph("id")}`);

async function newOrganization(): Promise<string> {
  const db = await testDb();
  const id = newId("org");
  await db.insert(organizations).values({ id, name: "Before", slug: `stmt-${id.slice(-10).toLowerCase()}` });
  return id;
}

describe("statements built once (db/statements.ts)", () => {
  it("answer the table's rows under their keys, with the columns' JS values", async () => {
    const db = await testDb();
    const id = await newOrganization();
    const [row] = await orgById(db, { id });
    const [expected] = await db.select().from(organizations).where(eq(organizations.id, id));
    expect(row).toEqual(expected);
    expect(row.createdAt).toBeInstanceOf(Date);
    expect(await nameOf(db, { id })).toEqual([{ theName: "Before" }]);
  });

  it("run in the transaction they are given: rolled back with it, and seen inside it", async () => {
    const db = await testDb();
    const id = await newOrganization();
    await expect(
      db.transaction(async (tx) => {
        const [renamed] = await renameOrg(tx, { id, name: "Inside" });
        expect(renamed.name).toBe("Inside");
        expect((await orgById(tx, { id }))[0].name).toBe("Inside");
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await orgById(db, { id }))[0].name).toBe("Before");
    await db.transaction(async (tx) => {
      await renameOrg(tx, { id, name: "Committed" });
    });
    expect((await orgById(db, { id }))[0].name).toBe("Committed");
  });

  it("run in a transaction opened by db/transaction.ts, with its builders' writes: together committed or rolled back", async () => {
    const db = await testDb();
    const id = await newOrganization();
    await expect(
      transaction(db, async (tx) => {
        await tx
          .update(organizations)
          .set({ slug: `moved-${id.slice(-8).toLowerCase()}` })
          .where(eq(organizations.id, id));
        const [renamed] = await renameOrg(tx, { id, name: "Inside" });
        expect(renamed).toMatchObject({ name: "Inside", slug: `moved-${id.slice(-8).toLowerCase()}` });
        // Outside the transaction nothing has changed yet (PGlite has one connection: the
        // transaction holds it).
        if (onPostgres) expect((await orgById(db, { id }))[0]).toMatchObject({ name: "Before" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const [after] = await db.select().from(organizations).where(eq(organizations.id, id));
    expect(after).toMatchObject({ name: "Before", slug: expect.stringMatching(/^stmt-/) });

    const answer = await transaction(db, async (tx) => {
      await renameOrg(tx, { id, name: "Committed" });
      return (await nameOf(tx, { id }))[0];
    });
    expect(answer).toEqual({ theName: "Committed" });
    expect((await orgById(db, { id }))[0].name).toBe("Committed");
  });

  it("apply the column's encoder to a placeholder's value (jsonb)", async () => {
    const db = await testDb();
    const insertEvent = statement(donationEvents, (d) =>
      d
        .insert(donationEvents)
        .values({ donationId: ph("donationId"), type: "test.encoded", data: ph("data") })
        .returning(),
    );
    const donationId = newId("don");
    // No such donation: the foreign key refuses the row, after the value was encoded and sent.
    await expect(insertEvent(db, { donationId, data: { nested: { a: [1, 2] } } })).rejects.toThrow();
  });
});

describe.runIf(onPostgres)("prepared statements on Postgres", () => {
  it("a drizzle query with parameters, in a transaction, reaches Postgres as a named prepared statement", async () => {
    const db = await testDb();
    const id = await newOrganization();
    const statements = await db.transaction(async (tx) => {
      await tx
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.slug, `prepared-${id}`));
      await renameOrg(tx, { id, name: "Prepared" });
      return tx.execute(sql`select statement from pg_prepared_statements where not from_sql`);
    });
    const texts = (Array.isArray(statements) ? statements : (statements as { rows: unknown[] }).rows).map(
      (r) => (r as { statement: string }).statement,
    );
    expect(texts.some((t) => t.includes(`from "organizations" where "organizations"."slug" = $1`))).toBe(true);
    expect(texts.some((t) => t.startsWith(`update "organizations" set "name" = $1`))).toBe(true);
  });
});
