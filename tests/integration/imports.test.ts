import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { donations, donors, imports, outbox, webhookEvents } from "@/db/schema";
import { applyImportBatch, drainImports } from "@/lib/services/imports/apply-import";
import { commitImport } from "@/lib/services/imports/commit-import";
import { call, get, post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrgAndCampaign, memberOf, outsider, type Campaign, type Org } from "../helpers/records";

const FIXTURES = path.join(__dirname, "../fixtures/imports");

/** A sample export with this test's campaign written in. */
function fixture(name: string, campaign: Campaign): string {
  return readFileSync(path.join(FIXTURES, name), "utf8")
    .replaceAll("{{campaign}}", campaign.slug)
    .replaceAll("{{campaignTitle}}", campaign.title);
}

function upload(org: Org, token: string, csv: string | Uint8Array, query: string, contentType = "text/csv") {
  return call("POST", `/api/orgs/${org.id}/imports?${query}`, { token, rawBody: csv, headers: { "content-type": contentType } });
}

async function checked(org: Org, token: string, csv: string, query: string) {
  const res = await upload(org, token, csv, query);
  expect(res.status, res.text).toBe(201);
  return res.body as Record<string, any>;
}

/** Commits through the API and waits for the background apply to finish. */
async function commitAndWait(id: string, token: string) {
  const res = await post(`/api/imports/${id}/commit`, undefined, { token });
  expect(res.status, res.text).toBe(202);
  expect(res.body.status).toBe("IMPORTING");
  for (let i = 0; i < 400; i++) {
    const now = await get(`/api/imports/${id}`, { token });
    if (now.body.status === "DONE") return now.body as Record<string, any>;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("import did not finish");
}

async function noViolations(orgId: string) {
  expect(await findViolations(await testDb(), [orgId])).toEqual([]);
}

/** Commits the import, waits for it, and checks the campaign's totals and the organization's invariants. */
async function commitAndExpectCampaign(
  imp: Record<string, any>,
  token: string,
  org: Org,
  campaign: Campaign,
  expected: Record<string, number>,
) {
  await commitAndWait(imp.id, token);
  expect((await get(`/api/campaigns/${campaign.id}`, { token })).body).toMatchObject(expected);
  await noViolations(org.id);
}

async function totals(orgId: string) {
  const db = await testDb();
  const rows = await db.execute(sql`
    select (select coalesce(json_agg(json_build_object('id', id, 'raised', raised_amount_cents, 'count', donation_count) order by id), '[]'::json)
              from campaigns where org_id = ${orgId}) as campaigns,
           (select coalesce(json_agg(json_build_object('id', id, 'total', total_given_cents, 'count', donation_count,
                    'first', first_donation_at, 'last', last_donation_at) order by id), '[]'::json)
              from donors where org_id = ${orgId}) as donors,
           (select coalesce(json_agg(t order by t.campaign_id, t.day), '[]'::json) from campaign_daily_totals t
              join campaigns c on c.id = t.campaign_id
              where c.org_id = ${orgId} and (t.donation_count <> 0 or t.raised_cents <> 0)) as daily`);
  return (Array.isArray(rows) ? rows : (rows as unknown as { rows: unknown[] }).rows)[0];
}

async function importedGifts(orgId: string) {
  const db = await testDb();
  return db
    .select()
    .from(donations)
    .where(and(eq(donations.orgId, orgId), eq(donations.source, "IMPORT")));
}

describe("POST /api/orgs/:idOrSlug/imports (goodfund preset)", () => {
  it("POST /api/orgs/:idOrSlug/imports checks every row: per-row errors with row, field and code, and a preview as read", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("goodfund.csv", campaign), "preset=goodfund");
    expect(imp).toMatchObject({ status: "READY", preset: "goodfund", rows: 7, valid: 3, invalid: 4, duplicates: 0, processed: 0 });
    expect(imp.committedAt).toBeNull();
    const codes = imp.errors.map((e: any) => [e.row, e.field, e.code]);
    expect(codes).toEqual([
      [5, "email", "invalid_email"],
      [6, "amount", "too_precise"],
      [7, "date", "invalid_date"],
      [8, "campaign", "campaign_not_found"],
    ]);
    // Each error keeps its row as read, written back as CSV: the bad-rows file can be made at any time.
    expect(imp.errors[0].line).toBe(`not-an-email,Bad,Row,12.00,2024-05-01,${campaign.slug},CASH,,gf-4`);
    expect(imp.errors[3].line).toBe("barbara@example.org,Barbara,Liskov,30.00,2024-06-01,no-such-campaign,CASH,,gf-7");
    const later = await get(`/api/imports/${imp.id}`, { token: owner.token });
    expect(later.body.errors.map((e: { line: string }) => e.line)).toEqual(imp.errors.map((e: { line: string }) => e.line));
    expect(imp.preview).toHaveLength(7);
    expect(imp.preview[0]).toMatchObject({
      row: 2,
      email: "ada@example.org",
      amount: 2500,
      date: "2024-03-05T00:00:00.000Z",
      method: "CHEQUE",
      valid: true,
    });
    // "1,250.50" in US form, read exactly as cents; a US date; a European date; the default method.
    expect(imp.preview[1]).toMatchObject({ amount: 125050, date: "2024-03-15T00:00:00.000Z", method: "BANK_TRANSFER" });
    expect(imp.preview[2]).toMatchObject({ amount: 1000, date: "2024-04-15T00:00:00.000Z", method: "OTHER" });
    expect(imp.preview[3]).toMatchObject({ row: 5, valid: false, email: "not-an-email" });
    // Nothing is applied before the commit.
    expect(await importedGifts(org.id)).toHaveLength(0);
  });

  it("POST /api/imports/:id/commit applies the valid rows in the background: IMPORT gifts in every total, no emails, one import.completed", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("goodfund.csv", campaign), "preset=goodfund");
    const done = await commitAndWait(imp.id, owner.token);
    expect(done).toMatchObject({ status: "DONE", processed: 3, duplicates: 0 });
    expect(done.committedAt).not.toBeNull();
    const gifts = await importedGifts(org.id);
    expect(gifts).toHaveLength(3);
    for (const g of gifts) {
      expect(g).toMatchObject({ status: "SUCCEEDED", source: "IMPORT", importId: imp.id, receiptNumber: null });
    }
    expect(gifts.map((g) => g.externalId).sort()).toEqual(["gf-1", "gf-2", "gf-3"]);
    const one = (await get(`/api/donations/${gifts.find((g) => g.externalId === "gf-1")!.id}`, { token: owner.token })).body;
    expect(one).toMatchObject({ source: "IMPORT", externalId: "gf-1", method: "CHEQUE", reference: "Cheque 1042", receiptStatus: "NONE" });
    const c = (await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body;
    expect(c).toMatchObject({ raisedAmountCents: 2500 + 125050 + 1000, donationCount: 3 });
    const db = await testDb();
    const [ada] = await db
      .select()
      .from(donors)
      .where(and(eq(donors.orgId, org.id), eq(donors.email, "ada@example.org")));
    expect(ada).toMatchObject({ totalGivenCents: 3500, donationCount: 2, source: "IMPORT", firstName: "Ada" });
    await noViolations(org.id);
    const events = await db.select().from(webhookEvents).where(eq(webhookEvents.orgId, org.id));
    expect(events.filter((e) => e.type.startsWith("donation."))).toEqual([]);
    expect(events.filter((e) => e.type === "import.completed")).toHaveLength(1);
    const emails = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orgId, org.id), eq(outbox.kind, "email")));
    expect(emails).toEqual([]);
    // Committing again is a conflict.
    expect((await post(`/api/imports/${imp.id}/commit`, undefined, { token: owner.token })).status).toBe(409);
  });

  it("POST /api/orgs/:idOrSlug/imports twice with the same file adds nothing the second time (external_id per organization)", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const csv = fixture("goodfund.csv", campaign);
    await commitAndWait((await checked(org, owner.token, csv, "preset=goodfund")).id, owner.token);
    const before = await totals(org.id);
    const again = await checked(org, owner.token, csv, "preset=goodfund");
    expect(again).toMatchObject({ valid: 3, duplicates: 3 });
    const done = await commitAndWait(again.id, owner.token);
    expect(done).toMatchObject({ status: "DONE", processed: 3, duplicates: 3 });
    expect(await importedGifts(org.id)).toHaveLength(3);
    expect(await totals(org.id)).toEqual(before);
    await noViolations(org.id);
  });
});

describe("POST /api/orgs/:idOrSlug/imports (other platforms' exports)", () => {
  it("POST /api/orgs/:idOrSlug/imports?preset=givebutter reads Givebutter's transactions export (completed payments only)", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("givebutter.csv", campaign), "preset=givebutter");
    expect(imp).toMatchObject({ rows: 3, valid: 2, invalid: 1 });
    expect(imp.errors).toEqual([expect.objectContaining({ row: 4, field: "status", code: "not_paid" })]);
    expect(imp.preview[0]).toMatchObject({
      externalId: "gb_8KX2a",
      amount: 5000,
      date: "2024-02-10T14:03:22.000Z",
      method: "CARD",
      campaignId: campaign.id,
    });
    expect(imp.preview[1]).toMatchObject({ amount: 7525, method: "BANK_TRANSFER" });
    await commitAndExpectCampaign(imp, owner.token, org, campaign, { raisedAmountCents: 12525, donationCount: 2 });
  });

  it("POST /api/orgs/:idOrSlug/imports?preset=givebutter also reads the field names of Givebutter's documented Transaction object", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const csv = [
      "id,number,campaign_code,first_name,last_name,email,method,status,amount,transacted_at",
      `gbt_1,R-1001,${campaign.slug},Mary,Jackson,mary@example.org,check,succeeded,120.50,2024-03-01 12:00:00`,
      `gbt_2,R-1002,${campaign.slug},Annie,Easley,annie@example.org,venmo,cancelled,15.00,2024-03-02 08:30:00`,
    ].join("\n");
    const imp = await checked(org, owner.token, csv, "preset=givebutter");
    expect(imp).toMatchObject({ rows: 2, valid: 1, invalid: 1 });
    expect(imp.errors).toEqual([expect.objectContaining({ row: 3, field: "status", code: "not_paid" })]);
    expect(imp.preview[0]).toMatchObject({
      externalId: "gbt_1",
      reference: "R-1001",
      firstName: "Mary",
      amount: 12050,
      date: "2024-03-01T12:00:00.000Z",
      method: "CHEQUE",
      campaignId: campaign.id,
    });
    await commitAndExpectCampaign(imp, owner.token, org, campaign, { raisedAmountCents: 12050, donationCount: 1 });
  });

  it("POST /api/orgs/:idOrSlug/imports?preset=givebutter takes a Transaction ID column as the external ID over an ID column", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const csv = [
      "ID,Transaction ID,Transaction Date (UTC),First Name,Last Name,Email,Amount,Status,Campaign Code",
      `contact_7,gb_tx_1,2024-04-01 10:00:00,Grace,Hopper,grace@example.org,10.00,succeeded,${campaign.slug}`,
      `contact_7,gb_tx_2,2024-04-02 10:00:00,Grace,Hopper,grace@example.org,20.00,succeeded,${campaign.slug}`,
    ].join("\n");
    const imp = await checked(org, owner.token, csv, "preset=givebutter");
    expect(imp).toMatchObject({ rows: 2, valid: 2, invalid: 0, duplicates: 0 });
    expect(imp.preview.map((r: { externalId: string }) => r.externalId)).toEqual(["gb_tx_1", "gb_tx_2"]);
  });

  it("POST /api/orgs/:idOrSlug/imports?preset=donorbox reads Donorbox's donations export (campaign by title, US date-times)", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("donorbox.csv", campaign), "preset=donorbox");
    expect(imp).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
    expect(imp.preview[0]).toMatchObject({
      externalId: "100231",
      email: "rosalind@example.org",
      firstName: "Rosalind",
      amount: 10000,
      date: "2024-01-20T10:30:00.000Z",
      campaignId: campaign.id,
    });
    expect(imp.preview[1]).toMatchObject({ date: "2024-01-21T16:05:00.000Z", method: "OTHER" });
    await commitAndExpectCampaign(imp, owner.token, org, campaign, { raisedAmountCents: 13500 });
  });

  it("POST /api/orgs/:idOrSlug/imports?preset=stripe reads Stripe's payments export into the campaign chosen", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("stripe.csv", campaign), `preset=stripe&campaignId=${campaign.slug}`);
    expect(imp).toMatchObject({ rows: 3, valid: 2, invalid: 1 });
    expect(imp.errors).toEqual([expect.objectContaining({ row: 4, field: "status", code: "not_paid" })]);
    expect(imp.preview[0]).toMatchObject({
      externalId: "ch_3OaA1b2C3d4E5f6G",
      email: "marie@example.org",
      firstName: "Marie",
      lastName: "Curie",
      amount: 4500,
      method: "CARD",
    });
    await commitAndExpectCampaign(imp, owner.token, org, campaign, { raisedAmountCents: 10500, donationCount: 2 });
    // Without a campaign to put them in, the rows are refused one by one.
    const none = await checked(org, owner.token, fixture("stripe.csv", campaign), "preset=stripe");
    expect(none.valid).toBe(0);
    expect(none.errors[0]).toMatchObject({ row: 2, field: "campaign", code: "required" });
  });
});

describe("POST /api/orgs/:idOrSlug/imports refuses what is not a CSV export", () => {
  it("POST /api/orgs/:idOrSlug/imports answers 400 for a file without the preset's columns, and keeps a FAILED import", async () => {
    const { owner, org } = await activeOrgAndCampaign();
    const res = await upload(org, owner.token, "name,value\nx,1\n", "preset=goodfund");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 400 });
    expect(res.body.error).toContain('"email"');
    const list = (await get(`/api/orgs/${org.id}/imports`, { token: owner.token })).body;
    expect(list.data[0]).toMatchObject({ status: "FAILED", errors: [expect.objectContaining({ code: "unreadable_file" })] });
  });

  it("POST /api/orgs/:idOrSlug/imports answers 400 for a body that is not CSV (binary, broken quotes, empty)", async () => {
    const { owner, org } = await activeOrgAndCampaign();
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    for (const body of [png, 'email,amount,date\n"unclosed,1,2024-01-01\n', ""]) {
      const res = await upload(org, owner.token, body, "preset=goodfund");
      expect(res.status, res.text).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(["error", "status"]);
    }
  });

  it("POST /api/orgs/:idOrSlug/imports answers 415 for a JSON body and 400 for an unknown preset", async () => {
    const { owner, org } = await activeOrgAndCampaign();
    expect((await upload(org, owner.token, '{"email":"x"}', "preset=goodfund", "application/json")).status).toBe(415);
    const bad = await upload(org, owner.token, "email\n", "preset=kindful");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("Validation failed");
  });

  it("POST /api/orgs/:idOrSlug/imports answers 413 for a file over 20 MiB", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const line = `someone@example.org,Some,One,1.00,2024-01-01,${campaign.slug},CASH,,\n`;
    const big =
      "email,first_name,last_name,amount,date,campaign,method,reference,external_id\n" +
      line.repeat(Math.ceil((21 * 1024 * 1024) / line.length));
    const res = await upload(org, owner.token, big, "preset=goodfund");
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Request body too large (limit 20 MiB)", status: 413 });
    expect(await importedGifts(org.id)).toHaveLength(0);
  });
});

describe("POST /api/imports/:id/undo", () => {
  it("POST /api/imports/:id/undo removes the gifts and the donors the import created; every aggregate returns exactly", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const other = await activeCampaign(org, owner, { title: "Autumn appeal", goalAmountCents: 500_000 });
    // A donor who gave before the import, by cheque.
    const gift = await post(
      `/api/orgs/${org.id}/offline-gifts`,
      {
        campaignId: campaign.id,
        amount: 4_000,
        receivedAt: "2024-06-01",
        method: "CHEQUE",
        donor: { email: "ada@example.org", firstName: "Ada", lastName: "Lovelace" },
      },
      { token: owner.token },
    );
    expect(gift.status, gift.text).toBe(201);
    const before = await totals(org.id);
    const csv =
      "email,first_name,last_name,amount,date,campaign,method,reference,external_id\n" +
      `ADA@example.org,Ada,Lovelace,25.00,2024-01-05,${campaign.slug},CASH,,u-1\n` +
      `new@example.org,New,Donor,99.99,2023-12-31,${other.slug},CASH,,u-2\n` +
      `new@example.org,New,Donor,0.01,2025-01-01,${campaign.slug},CASH,,u-3\n`;
    const imp = await checked(org, owner.token, csv, "preset=goodfund");
    await commitAndWait(imp.id, owner.token);
    expect(await totals(org.id)).not.toEqual(before);
    await noViolations(org.id);
    const undone = await post(`/api/imports/${imp.id}/undo`, undefined, { token: owner.token });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toMatchObject({ status: "UNDONE" });
    expect(undone.body.undoneAt).not.toBeNull();
    expect(await totals(org.id)).toEqual(before);
    expect(await importedGifts(org.id)).toHaveLength(0);
    const db = await testDb();
    const left = await db.select({ email: donors.email }).from(donors).where(eq(donors.orgId, org.id));
    expect(left.map((d) => d.email)).toEqual(["ada@example.org"]);
    await noViolations(org.id);
    // Undone is final.
    expect((await post(`/api/imports/${imp.id}/undo`, undefined, { token: owner.token })).status).toBe(409);
    // The commit and the undo are in the audit log, by the owner, naming the import.
    const log = await get(`/api/orgs/${org.id}/audit-log?limit=100`, { token: owner.token });
    const entries = (
      log.body.data as { action: string; target: { type: string; id: string }; actor: { id: string }; data: Record<string, unknown> }[]
    ).filter((e) => e.target.type === "import");
    expect(entries.map((e) => e.action)).toEqual(["import.undone", "import.committed"]);
    expect(entries.every((e) => e.target.id === imp.id && e.actor.id === owner.sub)).toBe(true);
    expect(entries[1].data).toMatchObject({ preset: "goodfund", rows: 3, valid: 3, invalid: 0 });
    expect(entries[0].data).toMatchObject({ gifts: 3 });
  });

  it("POST /api/imports/:id/undo answers 409 for an import not yet applied", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("goodfund.csv", campaign), "preset=goodfund");
    expect((await post(`/api/imports/${imp.id}/undo`, undefined, { token: owner.token })).status).toBe(409);
  });
});

describe("import apply across restarts", () => {
  it("a commit interrupted after one batch resumes in a fresh worker and applies no row twice", async () => {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const rows = Array.from(
      { length: 23 },
      (_, i) => `d${i % 5}@example.org,D,${i},${i + 1}.50,2024-02-0${(i % 9) + 1},${campaign.slug},CASH,,r-${i}`,
    );
    const csv = "email,first_name,last_name,amount,date,campaign,method,reference,external_id\n" + rows.join("\n") + "\n";
    const imp = await checked(org, owner.token, csv, "preset=goodfund");
    const db = await testDb();
    const [row] = await db.select().from(imports).where(eq(imports.id, imp.id));
    // Committed without the request's own background apply: the process "dies" after one batch.
    await commitImport(db, row, {
      actor: { type: "user", id: owner.sub, label: null },
      requestId: "req-test-commit",
      clientIp: "127.0.0.1",
    });
    const first = await applyImportBatch(db, { importId: imp.id, batchSize: 5 });
    expect(first).toMatchObject({ applied: 5, done: false });
    const mid = (await get(`/api/imports/${imp.id}`, { token: owner.token })).body;
    expect(mid).toMatchObject({ status: "IMPORTING", processed: 5 });
    expect(await importedGifts(org.id)).toHaveLength(5);
    await noViolations(org.id);
    // A fresh worker (another instance, or the same after a restart) resumes after the last committed row.
    await drainImports(db, { batchSize: 5 });
    const done = (await get(`/api/imports/${imp.id}`, { token: owner.token })).body;
    expect(done).toMatchObject({ status: "DONE", processed: 23, duplicates: 0 });
    const gifts = await importedGifts(org.id);
    expect(gifts).toHaveLength(23);
    expect(new Set(gifts.map((g) => g.externalId)).size).toBe(23);
    const expected = rows.reduce((sum, _, i) => sum + (i + 1) * 100 + 50, 0);
    expect((await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body).toMatchObject({
      raisedAmountCents: expected,
      donationCount: 23,
    });
    await noViolations(org.id);
    // Nothing is left for a worker to do.
    expect(await applyImportBatch(db, { importId: imp.id })).toBeNull();
  });
});

describe("imports: who may call what", () => {
  async function setup() {
    const { owner, org, campaign } = await activeOrgAndCampaign();
    const imp = await checked(org, owner.token, fixture("goodfund.csv", campaign), "preset=goodfund");
    const elsewhere = await activeOrgAndCampaign();
    const foreign = await checked(elsewhere.org, elsewhere.owner.token, fixture("goodfund.csv", elsewhere.campaign), "preset=goodfund");
    return { owner, org, campaign, imp, foreign, member: await memberOf(org, owner, "MEMBER"), stranger: await outsider() };
  }

  const csvCall = (org: Org, token: string | undefined, csv = "email\n") =>
    call("POST", `/api/orgs/${org.id}/imports?preset=goodfund`, { token, rawBody: csv, headers: { "content-type": "text/csv" } });

  it("every imports endpoint answers 401 without a token", async () => {
    const { org, imp } = await setup();
    expect((await csvCall(org, undefined)).status).toBe(401);
    expect((await get(`/api/orgs/${org.id}/imports`)).status).toBe(401);
    expect((await get(`/api/imports/${imp.id}`)).status).toBe(401);
    expect((await post(`/api/imports/${imp.id}/commit`)).status).toBe(401);
    expect((await post(`/api/imports/${imp.id}/undo`)).status).toBe(401);
  });

  it("the organization's imports endpoints answer 403 to a non-member; every write answers 403 to a MEMBER", async () => {
    const { org, imp, member, stranger } = await setup();
    expect((await csvCall(org, stranger.token)).status).toBe(403);
    expect((await get(`/api/orgs/${org.id}/imports`, { token: stranger.token })).status).toBe(403);
    expect((await csvCall(org, member.token)).status).toBe(403);
    expect((await get(`/api/orgs/${org.id}/imports`, { token: member.token })).status).toBe(200);
    expect((await get(`/api/imports/${imp.id}`, { token: member.token })).status).toBe(200);
    for (const action of ["commit", "undo"]) {
      const res = await post(`/api/imports/${imp.id}/${action}`, undefined, { token: member.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    }
  });

  it("every imports endpoint answers 404 for another organization's import or an unknown organization", async () => {
    const { owner, foreign, imp, stranger } = await setup();
    for (const [method, p, token] of [
      ["GET", `/api/imports/${imp.id}`, stranger.token],
      ["POST", `/api/imports/${imp.id}/commit`, stranger.token],
      ["POST", `/api/imports/${imp.id}/undo`, stranger.token],
    ] as const) {
      const res = await call(method, p, { token });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body).toEqual({ error: "Import not found", status: 404 });
    }
    for (const [method, p] of [
      ["GET", `/api/imports/${foreign.id}`],
      ["POST", `/api/imports/${foreign.id}/commit`],
      ["POST", `/api/imports/${foreign.id}/undo`],
      ["GET", "/api/imports/imp_unknown"],
    ] as const) {
      const res = await call(method, p, { token: owner.token });
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.body).toEqual({ error: "Import not found", status: 404 });
    }
    expect((await get("/api/orgs/no-such-org-here/imports", { token: owner.token })).status).toBe(404);
    const res = await call("POST", "/api/orgs/no-such-org-here/imports?preset=goodfund", {
      token: owner.token,
      rawBody: "email\n",
      headers: { "content-type": "text/csv" },
    });
    expect(res.status).toBe(404);
  });
});
