/**
 * Year-end statements: the organization's statement settings (address, receipt statement), the
 * PDF (read back with pdftotext), its totals against the donations table over random data,
 * POST /api/orgs/:idOrSlug/statements ("sent once", resend, erased donors skipped, progress),
 * the emailed attachment (through a local stand-in for Resend) byte for byte equal to the
 * donor's download, and the donor download's isolation.
 */
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { and, eq, like, sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "@/app/api/api-routes";
import { auditLog, donors, outbox, statementDeliveries, statementRuns } from "@/db/schema";
import type { RouteHandler } from "@/lib/api/route";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { loadStatement } from "@/lib/services/statements/statement-data";
import { renderStatementPdf } from "@/lib/services/statements/statement-pdf";
import { get, newCampaign, newOrg, patch, post, randomIp, serverClientIpHeaders, type TestUser } from "../helpers/api";
import { assertContractResponse } from "../helpers/contract";
import { testDb } from "../helpers/db";
import { donorSessionCookieFor, insertDonations, insertDonor, memberOf, randomEmail, rowsOf, type Org } from "../helpers/records";

const YEAR = 2024;
const at = (year: number, month: number, day: number, hour = 12) => new Date(Date.UTC(year, month - 1, day, hour));

/** The text of a PDF, as poppler's pdftotext reads it (layout kept, so a row stays on one line). */
function pdfText(pdf: Uint8Array): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");
}

/** The donor cookie of `donorId` for `orgId`, as the sign-in link would set it. */
async function donorCookie(orgId: string, donorId: string): Promise<Record<string, string>> {
  return { cookie: await donorSessionCookieFor(donorId, orgId) };
}

async function download(org: Org, donorId: string, year: number) {
  return get(`/api/donor/orgs/${org.slug}/statements/${year}`, { headers: await donorCookie(org.id, donorId) });
}

/** The download's raw bytes, through the route's handler (the `call` helper decodes bodies as text; a PDF needs its bytes). */
async function downloadBytes(org: Org, donorId: string, year: number): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const route = API_ROUTES.find((r) => r.path === "/api/donor/orgs/[orgSlug]/statements/[year]")!;
  const req = new NextRequest(`http://localhost:3000/api/donor/orgs/${org.slug}/statements/${year}`, {
    headers: { ...(await donorCookie(org.id, donorId)), ...serverClientIpHeaders(randomIp()) },
  });
  const handler = (route.module as Record<string, RouteHandler>).GET;
  const res = await handler(req, { params: Promise.resolve({ orgSlug: org.slug, year: String(year) }) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

let owner: TestUser;
let org: Org;
let campaignId: string;

beforeAll(async () => {
  const made = await newOrg(undefined, { legalName: "Lighthouse Friends Inc.", taxId: "12-3456789" });
  owner = made.owner;
  const res = await patch(
    `/api/orgs/${made.org.id}`,
    {
      address: "12 <b>Harbour</b> Road\nPortsmouth, NH 03801",
      receiptStatement: "No goods or services were provided in exchange for these gifts.<script>alert(1)</script>",
    },
    { token: owner.token },
  );
  expect(res.status, res.text).toBe(200);
  org = res.body;
  campaignId = (await newCampaign(org, owner.token, { title: "Winter meals", status: "ACTIVE" })).id;
}, 120_000);

describe("organization statement settings", () => {
  it("PATCH /api/orgs/:idOrSlug stores address and receiptStatement with HTML stripped, and donorErasureNeedsApproval", async () => {
    expect(org.address).toBe("12 Harbour Road\nPortsmouth, NH 03801");
    expect(org.receiptStatement).toBe("No goods or services were provided in exchange for these gifts.");
    expect(org.donorErasureNeedsApproval).toBe(false);
    const on = await patch(`/api/orgs/${org.slug}`, { donorErasureNeedsApproval: true }, { token: owner.token });
    expect(on.status, on.text).toBe(200);
    expect(on.body.donorErasureNeedsApproval).toBe(true);
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).body.donorErasureNeedsApproval).toBe(true);
    const off = await patch(`/api/orgs/${org.slug}`, { donorErasureNeedsApproval: false, address: null }, { token: owner.token });
    expect(off.body).toMatchObject({ donorErasureNeedsApproval: false, address: null });
    await patch(`/api/orgs/${org.slug}`, { address: "12 Harbour Road\nPortsmouth, NH 03801" }, { token: owner.token });
  });

  it("PATCH /api/orgs/:idOrSlug refuses a wrong type or an over-long text with the field named", async () => {
    const res = await patch(
      `/api/orgs/${org.slug}`,
      { donorErasureNeedsApproval: "yes", receiptStatement: "x".repeat(2001), address: 12 },
      { token: owner.token },
    );
    assertContractResponse(res, null);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual(["address", "donorErasureNeedsApproval", "receiptStatement"]);
    expect(res.body.details.fieldErrors.receiptStatement).toEqual(["String must contain at most 2000 character(s)"]);
  });
});

describe("the statement PDF", () => {
  it("names the organization, the donor and the year, lists each counted gift (renewals too) and the total, and prints the receipt statement", async () => {
    const donor = await insertDonor(org.id, { firstName: "Zoë", lastName: "Ångström", email: "zoe.statement@example.org" });
    await insertDonations([
      { orgId: org.id, campaignId, donorId: donor.id, amount: 2500, status: "SUCCEEDED", succeededAt: at(YEAR, 3, 5) },
      // A monthly renewal, with covered fees: the donor paid 1045.
      {
        orgId: org.id,
        campaignId,
        donorId: donor.id,
        amount: 1000,
        feeCents: 45,
        isRenewal: true,
        status: "SUCCEEDED",
        succeededAt: at(YEAR, 4, 5),
      },
      { orgId: org.id, campaignId, donorId: donor.id, amount: 7777, status: "REFUNDED", succeededAt: at(YEAR, 5, 1) },
      { orgId: org.id, campaignId, donorId: donor.id, amount: 8888, status: "DISPUTED", succeededAt: at(YEAR, 6, 1) },
      { orgId: org.id, campaignId, donorId: donor.id, amount: 9999, status: "SUCCEEDED", succeededAt: at(YEAR + 1, 1, 1, 0) },
      // 31 December, 23:30 UTC: still this year in UTC.
      {
        orgId: org.id,
        campaignId,
        donorId: donor.id,
        amount: 500,
        status: "SUCCEEDED",
        succeededAt: new Date(Date.UTC(YEAR, 11, 31, 23, 30)),
      },
    ]);
    const res = await downloadBytes(org, donor.id, YEAR);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="statement-${org.slug}-${YEAR}.pdf"`);
    expect(Buffer.from(res.bytes.slice(0, 5)).toString()).toBe("%PDF-");
    const text = pdfText(res.bytes);
    for (const expected of [
      "Lighthouse Friends Inc.",
      "Tax ID: 12-3456789",
      "12 Harbour Road",
      "Portsmouth, NH 03801",
      `Giving statement for ${YEAR}`,
      "Prepared for Zoë Ångström",
      "zoe.statement@example.org",
      "No goods or services were provided in exchange for these gifts.",
    ]) {
      expect(text).toContain(expected);
    }
    // Date, receipt number (none on these rows, written straight into the table), campaign, amount paid, deductible amount.
    expect(text).toMatch(/Mar 5, 2024\s+\S+\s+Winter meals\s+\$25\.00\s+\$25\.00/);
    expect(text).toMatch(/Apr 5, 2024\s+\S+\s+Winter meals\s+\$10\.45\s+\$10\.00/);
    expect(text).toMatch(/Dec 31, 2024\s+\S+\s+Winter meals\s+\$5\.00\s+\$5\.00/);
    expect(text).toMatch(/Total given in 2024 \(3 gifts\)\s+\$40\.45/);
    for (const excluded of ["$77.77", "$88.88", "$99.99"]) expect(text).not.toContain(excluded);
  });

  it("prints each gift's receipt number and deductible amount, as its receipt states them, and the deductible total", async () => {
    const gift = await post(
      `/api/orgs/${org.id}/offline-gifts`,
      {
        campaignId,
        amount: 15_000,
        advantageCents: 5_000,
        receivedAt: `${YEAR}-09-14`,
        method: "CHEQUE",
        reference: "Cheque 311",
        donor: { email: randomEmail("statement-receipt"), firstName: "Ines", lastName: "Receipt" },
      },
      { token: owner.token },
    );
    expect(gift.status, gift.text).toBe(201);
    expect(gift.body.receiptNumber).toMatch(new RegExp(`^${YEAR}-\\d{6}$`));
    const text = pdfText((await downloadBytes(org, gift.body.donorId, YEAR)).bytes);
    expect(text).toContain("RECEIPT");
    expect(text).toContain("DEDUCTIBLE");
    expect(text).toMatch(new RegExp(`Sep 14, 2024\\s+${gift.body.receiptNumber}\\s+Winter meals\\s+\\$150\\.00\\s+\\$100\\.00`));
    expect(text).toMatch(/Total given in 2024 \(1 gift\)\s+\$150\.00\n/);
    expect(text).toMatch(/Deductible amount \(as on each receipt\)\s+\$100\.00\n/);
  });

  it("shows a zero-decimal currency without decimals", async () => {
    const donor = await insertDonor(org.id, { firstName: "Ken", lastName: "Sato" });
    await insertDonations([
      { orgId: org.id, campaignId, donorId: donor.id, amount: 5000, currency: "jpy", status: "SUCCEEDED", succeededAt: at(YEAR, 2, 1) },
      { orgId: org.id, campaignId, donorId: donor.id, amount: 1200, currency: "jpy", status: "SUCCEEDED", succeededAt: at(YEAR, 2, 2) },
    ]);
    const text = pdfText((await downloadBytes(org, donor.id, YEAR)).bytes);
    expect(text).toMatch(/Feb 1, 2024\s+\S+\s+Winter meals\s+¥5,000\s+¥5,000\n/);
    expect(text).toMatch(/Total given in 2024 \(2 gifts\)\s+¥6,200\n/);
    expect(text).not.toContain("¥5,000.00");
  });

  it("in sandbox mode says at the top that it is a test (no real payment, not a tax receipt); in live mode it does not", async () => {
    const donor = await insertDonor(org.id, { firstName: "Tess" });
    await insertDonations([
      { orgId: org.id, campaignId, donorId: donor.id, amount: 1500, status: "SUCCEEDED", succeededAt: at(YEAR, 5, 5) },
    ]);
    // The tests run in sandbox mode: the download is marked.
    const downloaded = pdfText((await downloadBytes(org, donor.id, YEAR)).bytes);
    expect(downloaded.trimStart()).toMatch(/^TEST MODE: this statement comes from a Goodfund install in sandbox mode\./);
    expect(downloaded.replace(/\s+/g, " ")).toContain("No real payment was taken; it is not a tax receipt.");
    const statement = (await loadStatement(await testDb(), org as never, donor.id, YEAR))!;
    const live = pdfText(await renderStatementPdf(statement, { testMode: false }));
    expect(live).not.toContain("TEST MODE");
    expect(live).toMatch(/Total given in 2024 \(1 gift\)\s+\$15\.00\n/);
  });

  it("is the same bytes for the same data (no clock in the file)", async () => {
    const donor = await insertDonor(org.id, { firstName: "Sam" });
    await insertDonations([
      { orgId: org.id, campaignId, donorId: donor.id, amount: 4200, status: "SUCCEEDED", succeededAt: at(YEAR, 7, 7) },
    ]);
    const first = await downloadBytes(org, donor.id, YEAR);
    await new Promise((r) => setTimeout(r, 1100));
    const second = await downloadBytes(org, donor.id, YEAR);
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });

  it("totals match the donations table over random gifts (statuses, renewals, fees, years, donors, organizations)", async () => {
    const db = await testDb();
    const other = await newOrg();
    const otherCampaign = (await newCampaign(other.org, other.owner.token, { title: "Elsewhere", status: "ACTIVE" })).id;
    const gift = fc.record({
      donor: fc.integer({ min: 0, max: 2 }),
      otherOrg: fc.boolean(),
      status: fc.constantFrom("SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "REFUNDED", "DISPUTED", "FAILED", "PENDING"),
      amount: fc.integer({ min: 100, max: 500_000 }),
      feeCents: fc.constantFrom(0, 0, 45, 338),
      isRenewal: fc.boolean(),
      year: fc.constantFrom(YEAR - 1, YEAR, YEAR, YEAR + 1),
      dayOfYear: fc.integer({ min: 0, max: 365 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(gift, { minLength: 0, maxLength: 12 }), async (gifts) => {
        const ours = await Promise.all([0, 1, 2].map(() => insertDonor(org.id)));
        const theirs = await insertDonor(other.org.id, { email: ours[0].email });
        await insertDonations(
          gifts.map((g) => ({
            orgId: g.otherOrg ? other.org.id : org.id,
            campaignId: g.otherOrg ? otherCampaign : campaignId,
            donorId: g.otherOrg ? theirs.id : ours[g.donor].id,
            amount: g.amount,
            feeCents: g.feeCents,
            isRenewal: g.isRenewal,
            status: g.status as "SUCCEEDED",
            succeededAt:
              g.status === "PENDING" ? null : new Date(Date.UTC(g.year, 0, 1) + g.dayOfYear * 86_400_000 - (g.dayOfYear === 365 ? 1 : 0)),
          })),
        );
        for (const donor of ours) {
          const [expected] = await rowsOf<{ total: string | null; deductible: string | null; n: string }>(sql`
            select sum(amount + fee_cents) as total, sum(greatest(0, amount - advantage_cents)) as deductible, count(*) as n from donations
            where donor_id = ${donor.id} and org_id = ${org.id} and status = 'SUCCEEDED'
              and succeeded_at >= ${`${YEAR}-01-01T00:00:00Z`}::timestamptz and succeeded_at < ${`${YEAR + 1}-01-01T00:00:00Z`}::timestamptz`);
          const statement = await loadStatement(db, org as never, donor.id, YEAR);
          if (Number(expected.n) === 0) {
            expect(statement).toBeNull();
            expect((await downloadBytes(org, donor.id, YEAR)).status).toBe(404);
            continue;
          }
          expect(statement!.gifts).toHaveLength(Number(expected.n));
          expect(statement!.totals).toEqual([
            { currency: "usd", amountCents: Number(expected.total), deductibleCents: Number(expected.deductible) },
          ]);
          const text = pdfText(await renderStatementPdf(statement!));
          const dollars = (Number(expected.total) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 });
          expect(text).toMatch(new RegExp(`Total given in ${YEAR} \\(${expected.n} gifts?\\)\\s+\\$${dollars.replace(".", "\\.")}\\n`));
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 20) },
    );
  }, 180_000);
});

describe("POST /api/orgs/:idOrSlug/statements", () => {
  let sendOrg: Org;
  let admin: TestUser;
  let member: TestUser;
  const people: { id: string; email: string }[] = [];
  let erasedId: string;

  beforeAll(async () => {
    const made = await newOrg(undefined, { legalName: "Harbour Trust" });
    sendOrg = made.org;
    admin = await memberOf(sendOrg, made.owner, "ADMIN");
    member = await memberOf(sendOrg, made.owner, "MEMBER");
    const cid = (await newCampaign(sendOrg, made.owner.token, { title: "Roof", status: "ACTIVE" })).id;
    for (let i = 0; i < 3; i++) {
      const d = await insertDonor(sendOrg.id, { firstName: `Donor${i}` });
      people.push(d);
      await insertDonations([
        { orgId: sendOrg.id, campaignId: cid, donorId: d.id, amount: 1000 + i, status: "SUCCEEDED", succeededAt: at(YEAR, 5, 1 + i) },
      ]);
    }
    // Gave only another year, only a refunded gift, or was erased: no statement.
    const otherYear = await insertDonor(sendOrg.id);
    await insertDonations([
      { orgId: sendOrg.id, campaignId: cid, donorId: otherYear.id, status: "SUCCEEDED", succeededAt: at(YEAR - 1, 5, 1) },
    ]);
    const refunded = await insertDonor(sendOrg.id);
    await insertDonations([{ orgId: sendOrg.id, campaignId: cid, donorId: refunded.id, status: "REFUNDED", succeededAt: at(YEAR, 5, 1) }]);
    const erased = await insertDonor(sendOrg.id);
    erasedId = erased.id;
    await insertDonations([{ orgId: sendOrg.id, campaignId: cid, donorId: erased.id, status: "SUCCEEDED", succeededAt: at(YEAR, 5, 1) }]);
    const db = await testDb();
    await db.update(donors).set({ erasedAt: new Date() }).where(eq(donors.id, erased.id));
  }, 120_000);

  it("queues one email per donor who gave that year, once; resend queues them again; audit-logged", async () => {
    const db = await testDb();
    const first = await post(`/api/orgs/${sendOrg.slug}/statements`, { year: YEAR }, { token: admin.token });
    expect(first.status, first.text).toBe(202);
    expect(first.body.queued).toBe(3);
    const rows = await db
      .select({ to: sql<string>`${outbox.payload}->>'to'`, dedupeKey: outbox.dedupeKey, payload: outbox.payload })
      .from(outbox)
      .where(like(outbox.dedupeKey, `email:statement:${first.body.runId}:%`));
    expect(rows.map((r) => r.to).sort()).toEqual(people.map((p) => p.email).sort());
    expect(rows.map((r) => r.dedupeKey).sort()).toEqual(people.map((p) => `email:statement:${first.body.runId}:${p.id}`).sort());
    // The row says what to render; the PDF itself is never stored.
    expect(JSON.stringify(rows[0].payload)).not.toContain("%PDF");
    expect(rows.every((r) => r.payload.template === "year-end-statement")).toBe(true);
    const deliveries = await db.select().from(statementDeliveries).where(eq(statementDeliveries.runId, first.body.runId));
    expect(deliveries.map((d) => d.donorId).sort()).toEqual(people.map((p) => p.id).sort());
    expect(deliveries.some((d) => d.donorId === erasedId)).toBe(false);

    const again = await post(`/api/orgs/${sendOrg.slug}/statements`, { year: YEAR }, { token: admin.token });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ runId: null, queued: 0 });

    const resend = await post(`/api/orgs/${sendOrg.slug}/statements`, { year: YEAR, resend: true }, { token: admin.token });
    expect(resend.body.queued).toBe(3);
    expect(resend.body.runId).not.toBe(first.body.runId);

    const runs = await db.select().from(statementRuns).where(eq(statementRuns.orgId, sendOrg.id));
    expect(runs.map((r) => [r.queued, r.resend]).sort()).toEqual([
      [3, false],
      [3, true],
    ]);
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, sendOrg.id), eq(auditLog.action, "statements.sent")));
    expect(audits).toHaveLength(2);
    expect(audits.map((a) => (a.data as { queued: number }).queued)).toEqual([3, 3]);
  });

  it("another year with no gifts queues nothing", async () => {
    const res = await post(`/api/orgs/${sendOrg.slug}/statements`, { year: 2001 }, { token: admin.token });
    expect(res.status).toBe(202);
    expect(res.body.queued).toBe(0);
  });

  it("refuses years before 2000 and in the future, and a missing year (400)", async () => {
    for (const body of [{ year: 1999 }, { year: new Date().getUTCFullYear() + 1 }, { year: 2024.5 }, {}, { year: "2024" }]) {
      const res = await post(`/api/orgs/${sendOrg.slug}/statements`, body, { token: admin.token });
      assertContractResponse(res, null);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.details.fieldErrors)).toEqual(["year"]);
    }
  });

  it("a MEMBER may not send (403) but sees the runs' progress: queued, sent, failed", async () => {
    expect((await post(`/api/orgs/${sendOrg.slug}/statements`, { year: YEAR }, { token: member.token })).status).toBe(403);
    const db = await testDb();
    const [run] = await db
      .select()
      .from(statementRuns)
      .where(and(eq(statementRuns.orgId, sendOrg.id), eq(statementRuns.resend, false)));
    // One email sent, one failed for good, one still waiting.
    const keys = people.map((p) => `email:statement:${run.id}:${p.id}`);
    await db.update(outbox).set({ status: "SENT", sentAt: new Date() }).where(eq(outbox.dedupeKey, keys[0]));
    await db.update(outbox).set({ status: "FAILED" }).where(eq(outbox.dedupeKey, keys[1]));
    const res = await get(`/api/orgs/${sendOrg.slug}/statements?year=${YEAR}`, { token: member.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const listed = res.body.data.find((r: { id: string }) => r.id === run.id);
    expect(listed).toMatchObject({ year: YEAR, resend: false, queued: 3, sent: 1, failed: 1, pending: 1 });
    expect(res.body.data[0].resend).toBe(true); // newest first
    expect((await get(`/api/orgs/${sendOrg.slug}/statements?year=2001`, { token: member.token })).body.data).toEqual([]);
  });
});

describe("the emailed statement", () => {
  const requests: { body: Record<string, any> }[] = [];
  let server: Server;
  const saved = { key: process.env.RESEND_API_KEY, url: process.env.RESEND_BASE_URL };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        requests.push({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: `re_${requests.length}` }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    process.env.RESEND_API_KEY = "re_test_statements";
    process.env.RESEND_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resetEnv();
  });
  afterEach(() => {
    requests.length = 0;
  });
  afterAll(async () => {
    for (const [k, v] of [
      ["RESEND_API_KEY", saved.key],
      ["RESEND_BASE_URL", saved.url],
    ] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetEnv();
    await new Promise((r) => server.close(r));
  });

  it("carries the PDF as an attachment, byte for byte the donor's download", async () => {
    const db = await testDb();
    const made = await newOrg(undefined, { legalName: "Attachment Trust" });
    const cid = (await newCampaign(made.org, made.owner.token, { title: "Library", status: "ACTIVE" })).id;
    const donor = await insertDonor(made.org.id, { firstName: "Ada", lastName: "Byte" });
    await insertDonations([
      { orgId: made.org.id, campaignId: cid, donorId: donor.id, amount: 3000, status: "SUCCEEDED", succeededAt: at(YEAR, 8, 8) },
      {
        orgId: made.org.id,
        campaignId: cid,
        donorId: donor.id,
        amount: 1500,
        isRenewal: true,
        status: "SUCCEEDED",
        succeededAt: at(YEAR, 9, 8),
      },
    ]);
    const queued = await post(`/api/orgs/${made.org.id}/statements`, { year: YEAR }, { token: made.owner.token });
    expect(queued.body.queued).toBe(1);
    const result = await runWorkerOnce(db, { orgIds: [made.org.id] });
    expect(result.delivered).toBeGreaterThanOrEqual(1);
    const sent = requests.find((r) => r.body.to === donor.email || (Array.isArray(r.body.to) && r.body.to.includes(donor.email)));
    expect(sent, JSON.stringify(requests.map((r) => r.body.subject))).toBeDefined();
    expect(sent!.body.subject).toContain(`Your ${YEAR} giving statement from Attachment Trust`);
    expect(sent!.body.attachments).toHaveLength(1);
    expect(sent!.body.attachments[0].filename).toBe(`statement-${made.org.slug}-${YEAR}.pdf`);
    const attached = Buffer.from(sent!.body.attachments[0].content, "base64");
    const downloaded = await downloadBytes(made.org, donor.id, YEAR);
    expect(downloaded.status).toBe(200);
    expect(attached.equals(Buffer.from(downloaded.bytes))).toBe(true);
    expect(pdfText(attached)).toMatch(/Total given in 2024 \(2 gifts\)\s+\$45\.00/);
    const [row] = await db
      .select()
      .from(outbox)
      .where(like(outbox.dedupeKey, `email:statement:${queued.body.runId}:%`));
    expect(row.status).toBe("SENT");
  });

  it("is not sent when the donor was erased after it was queued (marked SENT with the reason)", async () => {
    const db = await testDb();
    const made = await newOrg();
    const cid = (await newCampaign(made.org, made.owner.token, { title: "Library", status: "ACTIVE" })).id;
    const donor = await insertDonor(made.org.id);
    await insertDonations([{ orgId: made.org.id, campaignId: cid, donorId: donor.id, status: "SUCCEEDED", succeededAt: at(YEAR, 8, 8) }]);
    const queued = await post(`/api/orgs/${made.org.id}/statements`, { year: YEAR }, { token: made.owner.token });
    expect(queued.body.queued).toBe(1);
    await db.update(donors).set({ erasedAt: new Date() }).where(eq(donors.id, donor.id));
    await runWorkerOnce(db, { orgIds: [made.org.id] });
    expect(requests).toHaveLength(0);
    const [row] = await db
      .select()
      .from(outbox)
      .where(like(outbox.dedupeKey, `email:statement:${queued.body.runId}:%`));
    expect(row.status).toBe("SENT");
    expect(row.lastError).toMatch(/erased/);
  });
});

describe("GET /api/donor/orgs/:orgSlug/statements/:year", () => {
  it("gives each donor only their own statement; 404 without gifts that year; 401 without a cookie or with another organization's", async () => {
    const a = await insertDonor(org.id, { firstName: "Alice", lastName: "Own" });
    const b = await insertDonor(org.id, { firstName: "Bob", lastName: "Other" });
    const none = await insertDonor(org.id, { firstName: "Nobody" });
    await insertDonations([
      { orgId: org.id, campaignId, donorId: a.id, amount: 1111, status: "SUCCEEDED", succeededAt: at(YEAR, 1, 10) },
      { orgId: org.id, campaignId, donorId: b.id, amount: 2222, status: "SUCCEEDED", succeededAt: at(YEAR, 1, 11) },
      { orgId: org.id, campaignId, donorId: none.id, amount: 3333, status: "REFUNDED", succeededAt: at(YEAR, 1, 12) },
    ]);
    const textA = pdfText((await downloadBytes(org, a.id, YEAR)).bytes);
    expect(textA).toContain("Alice Own");
    expect(textA).toContain("$11.11");
    expect(textA).not.toContain("$22.22");
    expect(textA).not.toContain("Bob");
    const textB = pdfText((await downloadBytes(org, b.id, YEAR)).bytes);
    expect(textB).toContain("$22.22");
    expect(textB).not.toContain("$11.11");

    const missing = await download(org, none.id, YEAR);
    assertContractResponse(missing, null);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Statement not found");
    expect((await download(org, a.id, YEAR - 1)).status).toBe(404);
    expect((await download(org, a.id, 1999)).status).toBe(404);

    const anon = await get(`/api/donor/orgs/${org.slug}/statements/${YEAR}`);
    assertContractResponse(anon, null);
    expect(anon.status).toBe(401);
    const other = await newOrg();
    const foreign = await get(`/api/donor/orgs/${org.slug}/statements/${YEAR}`, { headers: await donorCookie(other.org.id, a.id) });
    expect(foreign.status).toBe(401);
    // A donor of another organization, with a cookie of this one: the wrapper's donor is not ours.
    const outsiderDonor = await insertDonor(other.org.id);
    expect((await download(org, outsiderDonor.id, YEAR)).status).toBe(401);
  });

  it("an erased donor is signed out (401)", async () => {
    const db = await testDb();
    const d = await insertDonor(org.id);
    await insertDonations([{ orgId: org.id, campaignId, donorId: d.id, status: "SUCCEEDED", succeededAt: at(YEAR, 1, 10) }]);
    await db.update(donors).set({ erasedAt: new Date() }).where(eq(donors.id, d.id));
    expect((await download(org, d.id, YEAR)).status).toBe(401);
  });
});
