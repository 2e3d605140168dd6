/**
 * GET /api/orgs/:idOrSlug/donations (cursor paging, filters) and GET /api/donations/:id (the
 * timeline), through the real route handlers. Organizations and gifts are made through the API
 * and the sandbox; rows that need exact timestamps (ties, microseconds, boundaries) are inserted
 * directly.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, type TestUser } from "../helpers/api";
import { DONATION_FIELDS } from "../helpers/contract";
import {
  activeCampaign,
  activeOrg,
  CARD_DECLINED,
  expectInOrder,
  insertDonations,
  insertDonor,
  memberOf,
  outsider,
  paidDonation,
  rowsOf,
  startDonation,
  type Campaign,
  type Org,
} from "../helpers/records";

let owner: TestUser;
let member: TestUser;
let org: Org;
let campaignA: Campaign;
let campaignB: Campaign;
let campaignC: Campaign;
let otherOrgDonationId: string;
const TIE = "2022-02-02T02:02:02.222222Z";
const MICRO = ["2021-06-01T12:00:00.000001Z", "2021-06-01T12:00:00.000002Z", "2021-06-01T12:00:00.000003Z"];
const BOUNDARY = "2021-03-01T00:00:00.000000Z";
const JUST_BEFORE = "2021-02-28T23:59:59.999999Z";

type Row = {
  id: string;
  t: string;
  status: string;
  campaign_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
};

/** The organization's donations as the database holds them, in the list's order (newest first, ties by ID). */
const allRows = () =>
  rowsOf<Row>(sql`
    select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as t, status::text as status,
           campaign_id, email, first_name, last_name
    from donations where org_id = ${org.id} order by created_at desc, id desc`);

const createdAtOf = async (id: string) =>
  (
    await rowsOf<{ t: string }>(
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as t from donations where id = ${id}`,
    )
  )[0].t;

const listUrl = (params: Record<string, string | number | undefined>) => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.set(k, String(v));
  return `/api/orgs/${org.id}/donations?${qs}`;
};

/** Every page of the list for `params`, following nextCursor; `between` runs after each page. */
async function walk(params: Record<string, string | number | undefined>, between?: (page: any[]) => Promise<void>) {
  const seen: any[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 200; pages++) {
    const res = await get(listUrl({ ...params, cursor }), { token: member.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.pagination.limit).toBe(params.limit ?? 25);
    expect(res.body.data.length).toBeLessThanOrEqual(Number(params.limit ?? 25));
    seen.push(...res.body.data);
    cursor = res.body.pagination.nextCursor ?? undefined;
    if (!cursor) return seen;
    expect(res.body.data.length).toBe(Number(params.limit ?? 25));
    await between?.(res.body.data);
  }
  throw new Error("paging did not end");
}

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  member = await memberOf(org, owner, "MEMBER");
  campaignA = await activeCampaign(org, owner, { title: "Campaign A" });
  campaignB = await activeCampaign(org, owner, { title: "Campaign B" });
  campaignC = await activeCampaign(org, owner, { title: "Campaign C" });

  await paidDonation(campaignA.id);
  await paidDonation(campaignA.id, { firstName: "Grace", lastName: "Hopper", amount: 5000 });
  await paidDonation(campaignB.id, { firstName: "Alan", lastName: "Turing" });
  await paidDonation(campaignB.id, { firstName: "Failing", lastName: "Card" }, CARD_DECLINED);
  await startDonation(campaignB.id, { firstName: "Pending", lastName: "Person" });

  const donor = await insertDonor(org.id, { email: "direct-donor@example.org", firstName: "Direct", lastName: "Donor" });
  const base = { orgId: org.id, donorId: donor.id };
  await insertDonations([
    ...Array.from({ length: 7 }, () => ({ ...base, campaignId: campaignA.id, createdAt: TIE })),
    ...MICRO.map((t) => ({ ...base, campaignId: campaignC.id, createdAt: t })),
    { ...base, campaignId: campaignA.id, createdAt: BOUNDARY },
    { ...base, campaignId: campaignA.id, createdAt: JUST_BEFORE },
    {
      ...base,
      campaignId: campaignA.id,
      createdAt: "2020-05-05T05:05:05Z",
      email: "p_c@example.org",
      firstName: "Percy",
      lastName: "100%_Club",
    },
    {
      ...base,
      campaignId: campaignA.id,
      createdAt: "2020-05-05T05:05:06Z",
      email: "pxc@example.org",
      firstName: "Percival",
      lastName: "100xxClub",
    },
    ...Array.from({ length: 10 }, (_, i) => ({
      ...base,
      campaignId: campaignB.id,
      createdAt: `2020-01-01T00:${String(i).padStart(2, "0")}:00Z`,
      status: "SUCCEEDED" as const,
    })),
  ]);

  const other = await activeOrg();
  const otherCampaign = await activeCampaign(other.org, other.owner);
  otherOrgDonationId = (await startDonation(otherCampaign.id)).id;
});

describe("GET /api/orgs/:idOrSlug/donations: cursor paging", () => {
  it("GET /api/orgs/:idOrSlug/donations visits every donation exactly once while new donations arrive, ties included", async () => {
    const original = (await allRows()).map((r) => r.id);
    expect(original.length).toBeGreaterThan(25);
    const donor = await insertDonor(org.id);
    const neverShown: string[] = [];
    const laterOnce: string[] = [];
    let n = 0;

    const seen = await walk({ limit: 4 }, async (page) => {
      n++;
      // A brand-new gift through the API: newer than every cursor, so never on a later page.
      await startDonation(campaignA.id, { email: `arriving-${n}@example.org` });
      // Rows with exactly the timestamp of the page's last row: the ID decides which side of the cursor they fall on.
      const last = page.at(-1).id as string;
      const t = await createdAtOf(last);
      const [before, after] = await insertDonations([
        // IDs above every real one (and growing), and below every real one (and shrinking, so also below the last page's own).
        { orgId: org.id, campaignId: campaignA.id, donorId: donor.id, createdAt: t, id: `don_zzzz${String(n).padStart(4, "0")}` },
        { orgId: org.id, campaignId: campaignA.id, donorId: donor.id, createdAt: t, id: `don_0000${String(1000 - n).padStart(4, "0")}` },
      ]);
      neverShown.push(before);
      laterOnce.push(after);
      // And more rows inside the tie group, on whichever side they land.
      await insertDonations([{ orgId: org.id, campaignId: campaignB.id, donorId: donor.id, createdAt: TIE }]);
    });

    const ids = seen.map((d) => d.id as string);
    expect(new Set(ids).size, "no donation twice").toBe(ids.length);
    expect(
      ids.filter((id) => original.includes(id)),
      "every original donation once, in order",
    ).toEqual(original);
    for (const id of neverShown) expect(ids).not.toContain(id);
    for (const id of laterOnce)
      expect(
        ids.filter((x) => x === id),
        `${id} in ${JSON.stringify(ids)}`,
      ).toHaveLength(1);
    expect(ids.filter((id) => id.startsWith("don_") && !original.includes(id) && !laterOnce.includes(id)).length).toBeGreaterThan(0);
    // Newest first: createdAt never increases along the walk.
    const times = seen.map((d) => d.createdAt as string);
    expect([...times].sort().reverse()).toEqual(times);
    expect(n).toBeGreaterThan(5);
  });

  it("GET /api/orgs/:idOrSlug/donations keeps microseconds in the cursor: three gifts in one millisecond take three pages", async () => {
    const params = { limit: 1, campaignId: campaignC.id, from: "2021-06-01T12:00:00Z", to: "2021-06-01T12:00:01Z" };
    const seen = await walk(params);
    expect(seen).toHaveLength(3);
    const times = await Promise.all(seen.map((d) => createdAtOf(d.id)));
    expect(times).toEqual([...MICRO].reverse());
    // All three share the JSON's millisecond: only the cursor's microseconds tell them apart.
    expect(new Set(seen.map((d) => d.createdAt)).size).toBe(1);
  });

  it("GET /api/orgs/:idOrSlug/donations answers every documented Donation field and the cursor pagination block", async () => {
    const res = await get(`/api/orgs/${org.slug}/donations`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(25);
    expect(res.body.pagination).toEqual({ limit: 25, nextCursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    expect(Object.keys(res.body.data[0]).sort()).toEqual([...DONATION_FIELDS].sort());
    for (const d of res.body.data) expect(d.orgId).toBe(org.id);
    const all = await walk({ limit: 100 });
    expect(all.map((d) => d.id)).not.toContain(otherOrgDonationId);
    const last = await get(listUrl({ limit: 100 }), { token: member.token });
    expect(last.body.pagination.nextCursor).toBeNull();
  });
});

describe("GET /api/orgs/:idOrSlug/donations: filters", () => {
  const lower = (s: string | null) => (s ?? "").toLowerCase();
  const matchesQ = (r: Row, q: string) =>
    [r.email, r.first_name, r.last_name, [r.first_name, r.last_name].filter(Boolean).join(" ")].some((f) =>
      lower(f).includes(q.toLowerCase()),
    );

  const cases: [string, Record<string, string>, (r: Row) => boolean][] = [
    ["status SUCCEEDED", { status: "SUCCEEDED" }, (r) => r.status === "SUCCEEDED"],
    ["status FAILED", { status: "FAILED" }, (r) => r.status === "FAILED"],
    ["status PENDING", { status: "PENDING" }, (r) => r.status === "PENDING"],
    ["campaignId", { campaignId: "B" }, (r) => r.campaign_id === campaignB.id],
    ["campaignId of a campaign with only direct rows", { campaignId: "C" }, (r) => r.campaign_id === campaignC.id],
    ["from (inclusive)", { from: BOUNDARY }, (r) => r.t >= BOUNDARY],
    ["to (exclusive)", { to: BOUNDARY }, (r) => r.t < BOUNDARY],
    [
      "from and to",
      { from: JUST_BEFORE, to: "2021-06-01T12:00:00.000002Z" },
      (r) => r.t >= JUST_BEFORE && r.t < "2021-06-01T12:00:00.000002Z",
    ],
    ["q on the last name, any case", { q: "LOVELACE" }, (r) => matchesQ(r, "lovelace")],
    ["q on the first name", { q: "grace" }, (r) => matchesQ(r, "grace")],
    ["q on the email", { q: "direct-donor@" }, (r) => matchesQ(r, "direct-donor@")],
    ["q on the full name", { q: "alan tur" }, (r) => matchesQ(r, "alan tur")],
    ["q with LIKE wildcards taken literally", { q: "100%_" }, (r) => matchesQ(r, "100%_")],
    ["q of an underscore", { q: "_" }, (r) => matchesQ(r, "_")],
    ["q of a percent sign", { q: "%" }, (r) => matchesQ(r, "%")],
    ["q with a backslash", { q: "\\" }, () => false],
    [
      "everything at once",
      { status: "PENDING", campaignId: "A", to: "2023-01-01T00:00:00Z", q: "direct" },
      (r) => r.status === "PENDING" && r.campaign_id === campaignA.id && r.t < "2023-01-01T00:00:00.000000Z" && matchesQ(r, "direct"),
    ],
  ];

  it.each(cases)("GET /api/orgs/:idOrSlug/donations filters by %s, across pages, in order", async (_name, params, predicate) => {
    const resolved = { ...params };
    if (resolved.campaignId) resolved.campaignId = { A: campaignA.id, B: campaignB.id, C: campaignC.id }[resolved.campaignId]!;
    const expected = (await allRows()).filter(predicate).map((r) => r.id);
    const seen = await walk({ ...resolved, limit: 3 });
    expect(seen.map((d) => d.id)).toEqual(expected);
  });

  it("GET /api/orgs/:idOrSlug/donations finds the row whose name holds a literal 100%_ and not its look-alike", async () => {
    const seen = await walk({ q: "100%_", limit: 10 });
    expect(seen.map((d) => d.lastName)).toEqual(["100%_Club"]);
  });

  it("GET /api/orgs/:idOrSlug/donations with a campaign of another organization finds nothing", async () => {
    const other = await activeOrg();
    const c = await activeCampaign(other.org, other.owner);
    expect(await walk({ campaignId: c.id })).toEqual([]);
  });
});

describe("GET /api/orgs/:idOrSlug/donations: validation", () => {
  const expect400 = async (params: Record<string, string>, field: string) => {
    const res = await get(listUrl(params), { token: member.token });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toBe("Validation failed");
    expect(Object.keys(res.body.details.fieldErrors)).toEqual([field]);
    return res;
  };

  it.each(["0", "101", "-1", "abc", "2.5"])("GET /api/orgs/:idOrSlug/donations?limit=%s answers 400 on limit", async (limit) => {
    await expect400({ limit }, "limit");
  });

  it("GET /api/orgs/:idOrSlug/donations accepts limit 1 and 100", async () => {
    const total = (await allRows()).length;
    for (const limit of [1, 100]) {
      const res = await get(listUrl({ limit }), { token: member.token });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(Math.min(limit, total));
    }
  });

  const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
  it.each([
    ["not base64url", "!!not-a-cursor!!"],
    ["not JSON", b64("hello")],
    ["a JSON array", b64([1, 2])],
    ["a time without microseconds", b64({ t: "2021-01-01T00:00:00.000Z", id: "don_x" })],
    ["an impossible date", b64({ t: "2021-02-31T00:00:00.000000Z", id: "don_x" })],
    ["no id", b64({ t: "2021-01-01T00:00:00.000000Z" })],
    ["an empty id", b64({ t: "2021-01-01T00:00:00.000000Z", id: "" })],
  ])("GET /api/orgs/:idOrSlug/donations with a cursor that is %s answers 400 on cursor", async (_name, cursor) => {
    const res = await expect400({ cursor }, "cursor");
    expect(res.body.details.fieldErrors.cursor).toEqual(["Invalid cursor"]);
  });

  it("GET /api/orgs/:idOrSlug/donations answers 400 on a bad status, a bad date, and `to` not after `from`", async () => {
    await expect400({ status: "WON" }, "status");
    await expect400({ from: "yesterday" }, "from");
    await expect400({ from: "2021-01-02T00:00:00Z", to: "2021-01-01T00:00:00Z" }, "to");
    await expect400({ from: "2021-01-01T00:00:00Z", to: "2021-01-01T00:00:00Z" }, "to");
    await expect400({ q: "x".repeat(201) }, "q");
  });

  it("GET /api/orgs/:idOrSlug/donations treats a blank q as no search", async () => {
    const all = await get(listUrl({ limit: 100 }), { token: member.token });
    const blank = await get(listUrl({ limit: 100, q: "   " }), { token: member.token });
    expect(blank.body.data.map((d: any) => d.id)).toEqual(all.body.data.map((d: any) => d.id));
  });
});

describe("GET /api/donations/:id", () => {
  it("GET /api/donations/:id shows created → payment_intent.succeeded → refund events, and the emails queued for it", async () => {
    const paid = await paidDonation(campaignA.id, {
      firstName: "Timeline",
      dedication: { type: "IN_HONOR", honoreeName: "Grace Hopper", notifyEmail: "honoree@example.org" },
    });
    const refund = await post(`/api/donations/${paid.id}/refund`, undefined, { token: owner.token });
    expect(refund.status, refund.text).toBe(200);

    const res = await get(`/api/donations/${paid.id}`, { token: member.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: paid.id, orgId: org.id, status: "REFUNDED", firstName: "Timeline" });
    const timeline = res.body.timeline as any[];
    const types = timeline.map((e) => e.type);
    expectInOrder(types, [
      "donation.created",
      "payment_intent.succeeded",
      "email.receipt",
      "email.admin-notification",
      "email.tribute",
      "refund.requested",
      "charge.refunded",
    ]);
    expect(types).toContain("refund.created");
    // Oldest first.
    const times = timeline.map((e) => e.at);
    expect([...times].sort()).toEqual(times);

    const byType = Object.fromEntries(timeline.map((e) => [e.type, e]));
    expect(byType["donation.created"]).toEqual({
      kind: "event",
      type: "donation.created",
      at: expect.any(String),
      processorEventId: null,
      data: expect.objectContaining({ amount: 2500 }),
    });
    expect(byType["payment_intent.succeeded"]).toMatchObject({
      kind: "event",
      processorEventId: expect.stringMatching(/^evt_/),
      data: { from: "PENDING", to: "SUCCEEDED" },
    });
    expect(byType["charge.refunded"]).toMatchObject({
      kind: "event",
      processorEventId: expect.stringMatching(/^evt_/),
      data: { from: "SUCCEEDED", to: "REFUNDED" },
    });
    expect(byType["email.receipt"]).toEqual({
      kind: "email",
      type: "email.receipt",
      at: expect.any(String),
      template: "receipt",
      recipient: paid.email,
      status: expect.stringMatching(/^(PENDING|SENT|FAILED)$/),
      sentAt: byType["email.receipt"].status === "SENT" ? expect.any(String) : null,
      attempts: expect.any(Number),
    });
    expect(byType["email.admin-notification"]).toMatchObject({
      kind: "email",
      template: "admin-notification",
      recipient: "admin@goodfund-test.org",
    });
    expect(byType["email.tribute"]).toMatchObject({ kind: "email", template: "tribute", recipient: "honoree@example.org" });
    // The emails were queued by the payment's event: they sit right after it.
    expect(types.indexOf("email.receipt")).toBe(types.indexOf("payment_intent.succeeded") + 1);
  });

  it("GET /api/donations/:id of a pending gift has just its creation and no emails", async () => {
    const started = await startDonation(campaignB.id);
    const res = await get(`/api/donations/${started.id}`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("PENDING");
    expect(res.body.timeline.map((e: any) => e.type)).toEqual(["donation.created"]);
  });

  it("GET /api/donations/:id without a token answers 401, even for an unknown donation", async () => {
    const started = await startDonation(campaignB.id);
    for (const id of [started.id, "don_unknown000000000000"]) {
      const res = await get(`/api/donations/${id}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("GET /api/donations/:id of an unknown donation answers 404, before checking membership", async () => {
    for (const token of [member.token, (await outsider()).token]) {
      const res = await get("/api/donations/don_unknown000000000000", { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Donation not found", status: 404 });
    }
  });

  it("GET /api/donations/:id by a non-member answers 403", async () => {
    const started = await startDonation(campaignB.id);
    const res = await get(`/api/donations/${started.id}`, { token: (await outsider()).token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
  });
});
