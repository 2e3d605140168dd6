/**
 * The import's apply moves every aggregate for a batch at once (grouped statements). These tests
 * hold it to what moving each gift through moveDonation gives, exactly: the same CSV applied in
 * one organization by the import and in a twin organization gift by gift through moveDonation must
 * leave the same campaign totals (team pages and peer-to-peer parents included), matches under a
 * cap, per-day totals, donor totals, first/last gift times and names, and timelines; and the
 * invariant checker must find nothing after the apply, a resumed apply, an undo, and an apply
 * with online gifts succeeding on the same campaigns meanwhile.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaigns as campaignsTable, donations, donors, importRows, imports, type ImportRow } from "@/db/schema";
import { newId } from "@/lib/ids";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { applyImportBatch } from "@/lib/services/imports/apply-import";
import { commitImport } from "@/lib/services/imports/commit-import";
import { call, newCampaign, post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import { activeOrg, paidDonation, rowsOf, type Org } from "../helpers/records";

type Setup = Awaited<ReturnType<typeof setup>>;

/** An organization with a matched campaign (capped), a plain one, and a peer-to-peer parent with a page and a team with a member's page. */
async function setup() {
  const { owner, org } = await activeOrg();
  // Days in a zone far from UTC: a gift at midnight UTC counts on the local date, not the UTC one.
  await (await testDb()).execute(sql`update organizations set time_zone = 'Pacific/Auckland' where id = ${org.id}`);
  const matched = await newCampaign(org, owner.token, {
    title: "Matched appeal",
    status: "ACTIVE",
    goalAmountCents: 40_000,
    matchingEnabled: true,
    matchingRatioPct: 150,
    matchingMaxCents: 20_000,
  });
  const plain = await newCampaign(org, owner.token, { title: "Plain appeal", status: "ACTIVE" });
  const parent = await newCampaign(org, owner.token, {
    title: "Big walk",
    status: "ACTIVE",
    type: "PEER_TO_PEER",
    goalAmountCents: 100_000,
  });
  const page = await newCampaign(org, owner.token, {
    title: "Ada walks",
    status: "ACTIVE",
    type: "PEER_TO_PEER",
    parentCampaignId: parent.id,
  });
  const team = await newCampaign(org, owner.token, {
    title: "Team north",
    status: "ACTIVE",
    type: "PEER_TO_PEER",
    parentCampaignId: parent.id,
  });
  const member = await newCampaign(org, owner.token, {
    title: "Grace walks",
    status: "ACTIVE",
    type: "PEER_TO_PEER",
    parentCampaignId: parent.id,
  });
  const db = await testDb();
  await db.update(campaignsTable).set({ isTeam: true }).where(eq(campaignsTable.id, team.id));
  await db.update(campaignsTable).set({ teamId: team.id }).where(eq(campaignsTable.id, member.id));
  // A donor who gave online before the import: the import adds to their totals and names.
  await paidDonation(plain.id, { email: "d1@example.org", firstName: "Online", lastName: "Giver" });
  return { owner, org, campaigns: [matched, plain, parent, page, team, member] };
}

/** 60 rows over every campaign, five donors (one with two spellings of the email, names changing), days spread over two years. */
function csvFor(s: Setup, tag: string): string {
  const lines = ["email,first_name,last_name,amount,date,campaign,method,reference,external_id"];
  for (let i = 0; i < 60; i++) {
    const c = s.campaigns[(i * 7) % s.campaigns.length];
    const donor = i % 5;
    const email = i % 10 === 3 ? `D${donor}@Example.org` : `d${donor}@example.org`;
    const first = i % 4 === 0 ? "" : `First${i}`;
    const last = i % 6 === 0 ? "" : `Last${i}`;
    const cents = 100 + ((i * 7919) % 9_000);
    const date = `${2023 + (i % 2)}-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 27)).padStart(2, "0")}`;
    lines.push(
      `${email},${first},${last},${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")},${date},${c.slug},CHEQUE,,${tag}-${i}`,
    );
  }
  return lines.join("\n") + "\n";
}

async function check(org: Org, token: string, csv: string) {
  const res = await call("POST", `/api/orgs/${org.id}/imports?preset=goodfund`, {
    token,
    rawBody: csv,
    headers: { "content-type": "text/csv" },
  });
  expect(res.status, res.text).toBe(201);
  const db = await testDb();
  const [row] = await db.select().from(imports).where(eq(imports.id, res.body.id));
  return row;
}

/**
 * Applies the import batch by batch until it is DONE. Another test file's server, sharing the
 * database, may take a batch of it meanwhile (its background apply claims any waiting import):
 * then this waits for that batch.
 */
async function applyAll(importId: string, batchSize?: number) {
  const db = await testDb();
  for (;;) {
    const batch = await applyImportBatch(db, { importId, batchSize });
    if (batch?.done) return;
    if (batch) continue;
    const [imp] = await db.select({ status: imports.status }).from(imports).where(eq(imports.id, importId));
    if (imp.status === "DONE") return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const audit = (s: Setup) => ({
  actor: { type: "user" as const, id: s.owner.sub, label: null },
  requestId: "req-test",
  clientIp: "127.0.0.1",
});

/** The import's rows applied the way every gift moves: inserted PENDING, then moveDonation to SUCCEEDED, one by one. */
async function applyOneByOne(s: Setup, importId: string) {
  const db = await testDb();
  const rows: ImportRow[] = await db.select().from(importRows).where(eq(importRows.importId, importId)).orderBy(asc(importRows.row));
  const [org] = await rowsOf<{ currency: string }>(sql`select currency from organizations where id = ${s.org.id}`);
  await db.transaction(async (tx) => {
    for (const r of rows) {
      if (r.duplicate) continue;
      await tx
        .insert(donors)
        .values({
          id: newId("dnr"),
          orgId: s.org.id,
          email: r.data.email,
          firstName: r.data.firstName,
          lastName: r.data.lastName,
          source: "IMPORT",
        })
        .onConflictDoNothing();
      const [donor] = await tx
        .select({ id: donors.id })
        .from(donors)
        .where(and(eq(donors.orgId, s.org.id), sql`lower(${donors.email}) = ${r.data.email.toLowerCase()}`));
      const [pending] = await tx
        .insert(donations)
        .values({
          id: newId("don"),
          orgId: s.org.id,
          campaignId: r.data.campaignId,
          donorId: donor.id,
          amount: r.data.amountCents,
          currency: org.currency,
          email: r.data.email,
          firstName: r.data.firstName,
          lastName: r.data.lastName,
          source: "IMPORT",
          method: r.data.method,
          reference: r.data.reference,
          externalId: r.data.externalId,
          importId,
          succeededAt: new Date(r.data.receivedAt),
        })
        .returning();
      await moveDonation(tx, pending, "SUCCEEDED", { timelineType: "import.applied", data: { importId, row: r.row }, quiet: true });
    }
  });
}

/** Everything the gifts feed, with the organization's own IDs replaced by the campaigns' places and the donors' emails. */
async function snapshot(s: Setup) {
  const at = new Map(s.campaigns.map((c, i) => [c.id, i]));
  const campaigns = await rowsOf<{ id: string; raised: string; n: number; matched: string }>(sql`
    select id, raised_amount_cents as raised, donation_count as n, matched_amount_cents as matched from campaigns where org_id = ${s.org.id}`);
  const donorRows = await rowsOf<Record<string, unknown>>(sql`
    select lower(email) as email, total_given_cents::text as total, donation_count as n, first_donation_at::text as first,
           last_donation_at::text as last, first_name, last_name, locale, source
    from donors where org_id = ${s.org.id} order by lower(email)`);
  const days = await rowsOf<{ campaign_id: string; day: string; raised: string; n: number }>(sql`
    select campaign_id, day::text as day, raised_cents::text as raised, donation_count as n
    from campaign_daily_totals where org_id = ${s.org.id} and (donation_count <> 0 or raised_cents <> 0) order by campaign_id, day`);
  const gifts = await rowsOf<Record<string, unknown>>(sql`
    select external_id, campaign_id, amount::text as amount, matched_amount_cents as matched, status, succeeded_at::text as succeeded_at,
           receipt_number, failure_reason
    from donations where org_id = ${s.org.id} and source = 'IMPORT' order by external_id`);
  const timeline = await rowsOf<Record<string, unknown>>(sql`
    select d.external_id, e.type, e.processor_event_id, e.data - 'importId' as data
    from donation_events e join donations d on d.id = e.donation_id
    where d.org_id = ${s.org.id} and d.source = 'IMPORT' order by d.external_id, e.id`);
  return {
    campaigns: campaigns
      .map((c) => ({ at: at.get(c.id), raised: Number(c.raised), n: c.n, matched: Number(c.matched) }))
      .sort((a, b) => a.at! - b.at!),
    // The online gift made at setup is the twins' only difference: its time.
    donors: donorRows.map((d) => ({ ...d, first: sinceSetup(d.first), last: sinceSetup(d.last) })),
    days: days
      .map((d) => ({ at: at.get(d.campaign_id), day: d.day, raised: d.raised, n: d.n }))
      .sort((a, b) => a.at! - b.at! || a.day.localeCompare(b.day)),
    gifts: gifts.map((g): Record<string, unknown> => ({ ...g, campaign_id: at.get(g.campaign_id as string) })),
    timeline,
  };
}

/** A time of this run (the online gift at setup), not one of the imported gifts (2023–2024). */
const sinceSetup = (t: unknown) => (typeof t === "string" && t >= "2025" ? "(at setup)" : t);

const totalsOnly = ({ email, total, n, first, last }: Record<string, unknown>) => ({ email, total, n, first, last });

describe("import apply, grouped per batch", () => {
  it("leaves exactly what moving each gift through moveDonation leaves: campaigns, team pages, parents, matches under the cap, days, donors, timelines", async () => {
    const [a, b] = [await setup(), await setup()];
    const beforeA = await snapshot(a);
    const impA = await check(a.org, a.owner.token, csvFor(a, "x"));
    const impB = await check(b.org, b.owner.token, csvFor(b, "x"));
    expect(impA.valid).toBe(60);
    await commitImport(await testDb(), impA, audit(a));
    // Small batches: the match cap and the donors' names carry from one batch to the next.
    await applyAll(impA.id, 7);
    await applyOneByOne(b, impB.id);
    const [got, want] = [await snapshot(a), await snapshot(b)];
    expect(got.gifts).toHaveLength(60);
    // The cap was reached part-way: some gifts matched in full, one partly, the rest not at all.
    const matchedGifts = got.gifts.filter((g) => g.campaign_id === 0);
    expect(matchedGifts.some((g) => Number(g.matched) === 0)).toBe(true);
    expect(got.campaigns[0].matched).toBe(20_000);
    // The team page and the parent count their pages' gifts.
    expect(got.campaigns[4].n).toBeGreaterThan(0);
    expect(got.campaigns[2].n).toBeGreaterThan(got.campaigns[3].n + got.campaigns[5].n);
    expect(got).toEqual(want);
    expect(await findViolations(await testDb(), [a.org.id, b.org.id])).toEqual([]);

    // Undone: every total back to where it was before the import (the names the import gave stay).
    const undone = await post(`/api/imports/${impA.id}/undo`, undefined, { token: a.owner.token });
    expect(undone.status, undone.text).toBe(200);
    const after = await snapshot(a);
    expect(after.gifts).toEqual([]);
    expect(after.timeline).toEqual([]);
    expect({ ...after, donors: after.donors.map(totalsOnly) }).toEqual({ ...beforeA, donors: beforeA.donors.map(totalsOnly) });
    expect(await findViolations(await testDb(), [a.org.id])).toEqual([]);
  });

  it("an apply interrupted after a batch, resumed, and re-checked with the same file: no gift twice, aggregates exact", async () => {
    const s = await setup();
    const imp = await check(s.org, s.owner.token, csvFor(s, "r"));
    const db = await testDb();
    await commitImport(db, imp, audit(s));
    expect(await applyImportBatch(db, { importId: imp.id, batchSize: 25 })).toMatchObject({ applied: 25, done: false });
    expect(await findViolations(db, [s.org.id])).toEqual([]);
    await applyAll(imp.id);
    const [done] = await db.select().from(imports).where(eq(imports.id, imp.id));
    expect(done).toMatchObject({ status: "DONE", processed: 60, duplicates: 0 });
    // The same file again: every row a duplicate, nothing moves.
    const again = await check(s.org, s.owner.token, csvFor(s, "r"));
    expect(again.duplicates).toBe(60);
    const before = await snapshot(s);
    await commitImport(db, again, audit(s));
    await applyAll(again.id);
    expect(await snapshot(s)).toEqual(before);
    expect(await findViolations(db, [s.org.id])).toEqual([]);
  });

  it("online gifts succeeding on the same campaigns while the import applies: both counted, aggregates exact", async () => {
    const s = await setup();
    const imp = await check(s.org, s.owner.token, csvFor(s, "c"));
    const db = await testDb();
    await commitImport(db, imp, audit(s));
    const online = Promise.all(
      [0, 2, 3, 4, 5, 0].map((i, n) => paidDonation(s.campaigns[i].id, { email: `online${n}@example.org`, amount: 1_500 + n })),
    );
    await Promise.all([applyAll(imp.id, 5), online]);
    const gifts = await rowsOf<{ n: string }>(sql`select count(*) as n from donations where org_id = ${s.org.id} and status = 'SUCCEEDED'`);
    expect(Number(gifts[0].n)).toBe(60 + 6 + 1);
    expect(await findViolations(db, [s.org.id])).toEqual([]);
  });
});
