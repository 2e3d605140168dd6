/**
 * Donor records: PATCH /api/donors/:id (contact details, address, tags, consent), the list's tag
 * filter, staff notes (POST/GET /api/donors/:id/notes) and merges (POST /api/donors/:id/merge),
 * each with 401, 403 (non-member and role), 404 (another organization's donor) and 400s.
 */
import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, campaigns, donorSessions, donors, recurringPlans, webhookEvents } from "@/db/schema";
import { findViolations } from "../helpers/invariants";
import { get, patch, post, type TestUser } from "../helpers/api";
import { nasty, wrongType } from "../helpers/arbitraries";
import { testDb } from "../helpers/db";
import {
  activeCampaign,
  activeOrg,
  donorSessionCookieFor,
  insertDonor,
  memberOf,
  outsider,
  paidDonation,
  pay,
  randomEmail,
  startDonation,
  type Org,
} from "../helpers/records";

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let org: Org;
/** A donor of another organization, with that organization's owner. */
let foreign: { donorId: string; owner: TestUser };

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  admin = await memberOf(org, owner, "ADMIN");
  member = await memberOf(org, owner, "MEMBER");
  stranger = await outsider();
  const elsewhere = await activeOrg();
  foreign = { donorId: (await insertDonor(elsewhere.org.id, { firstName: "Far", lastName: "Away" })).id, owner: elsewhere.owner };
});

const ADDRESS = { line1: "1 Main St", line2: null, city: "Springfield", region: "IL", postalCode: "62701", country: "US" };

async function auditEntries(targetId: string, action: string) {
  const db = await testDb();
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, action), eq(auditLog.targetId, targetId)));
}

describe("PATCH /api/donors/:id", () => {
  it("PATCH /api/donors/:id sets phone, address, tags, consent and names, stripping HTML, and audits the change", async () => {
    const d = await insertDonor(org.id, { firstName: "Ada" });
    const res = await patch(
      `/api/donors/${d.id}`,
      {
        firstName: "<b>Ada</b>",
        lastName: "Lovelace",
        phone: "+1 (555) 010-2030",
        address: { ...ADDRESS, country: "us", line2: "" },
        tags: ["gala-2026", "<i>board</i>", "Board", "major donor"],
        emailOptIn: true,
      },
      { token: admin.token },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: d.id,
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "+1 (555) 010-2030",
      address: ADDRESS,
      tags: ["gala-2026", "board", "major donor"],
      emailOptIn: true,
      source: "ONLINE",
      totalGivenCents: 0,
    });
    const read = await get(`/api/donors/${d.id}`, { token: member.token });
    expect(read.body).toMatchObject({ address: ADDRESS, tags: ["gala-2026", "board", "major donor"], emailOptIn: true });
    const [entry] = await auditEntries(d.id, "donor.updated");
    expect(entry.data).toMatchObject({ changes: { lastName: "Lovelace", emailOptIn: true } });

    // Repeating the same values changes nothing and records nothing.
    const again = await patch(`/api/donors/${d.id}`, { address: ADDRESS, emailOptIn: true }, { token: admin.token });
    expect(again.status).toBe(200);
    expect(await auditEntries(d.id, "donor.updated")).toHaveLength(1);

    const cleared = await patch(`/api/donors/${d.id}`, { phone: null, address: null, tags: [], lastName: "" }, { token: owner.token });
    expect(cleared.body).toMatchObject({ phone: null, address: null, tags: [], lastName: null });
  });

  it("PATCH /api/donors/:id changes the email, and answers 409 donor_email_taken for another donor's (any case)", async () => {
    const taken = randomEmail("taken");
    await insertDonor(org.id, { email: taken });
    const d = await insertDonor(org.id);
    const fresh = randomEmail("fresh");
    expect((await patch(`/api/donors/${d.id}`, { email: fresh }, { token: admin.token })).body.email).toBe(fresh);
    // Its own email in another case is not a conflict.
    expect((await patch(`/api/donors/${d.id}`, { email: fresh.toUpperCase() }, { token: admin.token })).status).toBe(200);
    const res = await patch(`/api/donors/${d.id}`, { email: taken.toUpperCase() }, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Another donor of this organization has this email", status: 409, code: "donor_email_taken" });
  });

  it("PATCH /api/donors/:id answers 400 per field for bad values", async () => {
    const d = await insertDonor(org.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "not-an-email" }, "email"],
      [{ phone: "call me maybe" }, "phone"],
      [{ address: { ...ADDRESS, country: "XX" } }, "address.country"],
      [{ address: { ...ADDRESS, country: "USA" } }, "address.country"],
      [{ address: { ...ADDRESS, line1: "" } }, "address.line1"],
      [{ address: { ...ADDRESS, city: "<b></b>" } }, "address.city"],
      [{ tags: ["x".repeat(41)] }, "tags.0"],
      [{ tags: [""] }, "tags.0"],
      [{ tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, "tags"],
      [{ tags: "vip" }, "tags"],
      [{ emailOptIn: "yes" }, "emailOptIn"],
      [{ firstName: "x".repeat(101) }, "firstName"],
    ];
    for (const [body, field] of cases) {
      const res = await patch(`/api/donors/${d.id}`, body, { token: admin.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe("Validation failed");
      expect(Object.keys(res.body.details.fieldErrors), JSON.stringify(body)).toContain(field);
    }
  });

  it("PATCH /api/donors/:id answers 401, 403 (non-member, MEMBER, another organization's donor) and 404 (unknown)", async () => {
    const d = await insertDonor(org.id);
    const body = { phone: "555 0100" };
    expect((await patch(`/api/donors/${d.id}`, body)).status).toBe(401);
    expect((await patch(`/api/donors/${d.id}`, body, { token: stranger.token })).status).toBe(403);
    expect((await patch(`/api/donors/${d.id}`, body, { token: member.token })).status).toBe(403);
    const unknown = await patch(`/api/donors/dnr_unknown`, body, { token: admin.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: "Donor not found", status: 404 });
    expect((await patch(`/api/donors/${foreign.donorId}`, body, { token: admin.token })).status).toBe(403);
    // 404 before 403: the unknown donor is not found whoever asks.
    expect((await patch(`/api/donors/dnr_unknown`, body, { token: stranger.token })).status).toBe(404);
  });

  it("PATCH /api/donors/:id refuses an erased donor with 409", async () => {
    const d = await insertDonor(org.id);
    expect((await post(`/api/orgs/${org.id}/donors/${d.id}/erase`, undefined, { token: admin.token })).status).toBe(200);
    const res = await patch(`/api/donors/${d.id}`, { firstName: "Back" }, { token: admin.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "An erased donor cannot be edited", status: 409 });
  });

  it("PATCH /api/donors/:id never answers 500 to any body (fuzzed)", async () => {
    const d = await insertDonor(org.id);
    const field = fc.oneof(nasty, fc.string({ maxLength: 60 }));
    const value = fc.oneof(
      wrongType(field),
      fc.array(field, { maxLength: 60 }),
      fc.record({ line1: wrongType(field), city: wrongType(field), country: wrongType(field), postalCode: wrongType(field) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom("firstName", "lastName", "email", "phone", "address", "tags", "emailOptIn", "totalGivenCents"),
          value,
        ),
        async (body) => {
          const res = await patch(`/api/donors/${d.id}`, body, { token: admin.token });
          expect([200, 400, 409], res.text).toContain(res.status);
          if (res.status === 400) expect(res.body.error).toBe("Validation failed");
        },
      ),
      { numRuns: 80 },
    );
    // Totals are not editable: whatever was sent, they are still the donations' sums.
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });
});

describe("GET /api/orgs/:idOrSlug/donors?tag=", () => {
  it("GET /api/orgs/:idOrSlug/donors?tag= lists only the donors carrying the tag, with q, and the export follows", async () => {
    const { owner: o, org: tagged } = await activeOrg();
    // Addresses of digits only: `q` searches them too, and a random one could contain "two".
    const email = (n: number) => `donor-${Date.now()}-${n}@example.org`;
    const a = await insertDonor(tagged.id, { firstName: "Gala", lastName: "One", email: email(1) });
    const b = await insertDonor(tagged.id, { firstName: "Gala", lastName: "Two", email: email(2) });
    await insertDonor(tagged.id, { firstName: "Plain", lastName: "Three", email: email(3) });
    await patch(`/api/donors/${a.id}`, { tags: ["gala", "board"] }, { token: o.token });
    await patch(`/api/donors/${b.id}`, { tags: ["gala"] }, { token: o.token });
    const ids = async (query: string) => {
      const res = await get(`/api/orgs/${tagged.slug}/donors?${query}`, { token: o.token });
      expect(res.status, res.text).toBe(200);
      return { ids: (res.body.data as { id: string }[]).map((d) => d.id).sort(), total: res.body.pagination.total };
    };
    expect(await ids("tag=gala")).toEqual({ ids: [a.id, b.id].sort(), total: 2 });
    expect(await ids("tag=board")).toEqual({ ids: [a.id], total: 1 });
    expect(await ids("tag=Gala")).toEqual({ ids: [], total: 0 });
    expect(await ids(`tag=gala&q=${encodeURIComponent("Two")}`)).toEqual({ ids: [b.id], total: 1 });
    expect((await ids("tag=")).total).toBe(3);
    expect((await get(`/api/orgs/${tagged.slug}/donors?tag=${"x".repeat(41)}`, { token: o.token })).status).toBe(400);

    const csv = await get(`/api/orgs/${tagged.slug}/donors/export?tag=board`, { token: o.token });
    expect(csv.status).toBe(200);
    const lines = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("tags");
    expect(lines[1]).toContain("gala; board");
  });
});

describe("/api/donors/:id/notes", () => {
  it("POST /api/donors/:id/notes adds a note signed by its author (HTML stripped); GET lists them newest first", async () => {
    const d = await insertDonor(org.id);
    const first = await post(`/api/donors/${d.id}/notes`, { body: "Met at the <b>gala</b>" }, { token: member.token });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^dnote_/),
      donorId: d.id,
      body: "Met at the gala",
      author: { id: expect.stringMatching(/^usr_/), name: expect.toBeOneOf([null, expect.any(String)]), email: member.email },
      createdAt: expect.any(String),
    });
    const second = await post(`/api/donors/${d.id}/notes`, { body: "Prefers cheques" }, { token: admin.token });
    expect(second.status).toBe(201);
    const list = await get(`/api/donors/${d.id}/notes`, { token: member.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((n: { body: string }) => n.body)).toEqual(["Prefers cheques", "Met at the gala"]);
    expect(list.body.pagination).toEqual({ page: 1, limit: 50, total: 2, hasMore: false });
    const paged = await get(`/api/donors/${d.id}/notes?limit=1&page=2`, { token: member.token });
    expect(paged.body.data.map((n: { body: string }) => n.body)).toEqual(["Met at the gala"]);
  });

  it("POST /api/donors/:id/notes answers 400 for an empty, HTML-only or too long body", async () => {
    const d = await insertDonor(org.id);
    for (const body of [{}, { body: "" }, { body: "<p></p>" }, { body: "x".repeat(5001) }, { body: 42 }]) {
      const res = await post(`/api/donors/${d.id}/notes`, body, { token: member.token });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.fieldErrors.body).toBeDefined();
    }
    expect((await post(`/api/donors/${d.id}/notes`, { body: "x".repeat(5000) }, { token: member.token })).status).toBe(201);
  });

  it("/api/donors/:id/notes answers 401, 403 to a non-member (another organization's donor included) and 404 for an unknown donor", async () => {
    const d = await insertDonor(org.id);
    for (const [method, send] of [
      ["GET", (token?: string, id = d.id) => get(`/api/donors/${id}/notes`, { token })],
      ["POST", (token?: string, id = d.id) => post(`/api/donors/${id}/notes`, { body: "hello" }, { token })],
    ] as const) {
      expect((await send()).status, method).toBe(401);
      expect((await send(stranger.token)).status, method).toBe(403);
      // Another organization's donor is that organization's: its members only (403), like GET /api/donors/:id.
      expect((await send(member.token, foreign.donorId)).status, method).toBe(403);
      expect((await send(member.token, "dnr_unknown")).body, method).toEqual({ error: "Donor not found", status: 404 });
    }
  });
});

describe("POST /api/donors/:id/merge", () => {
  it("POST /api/donors/:id/merge moves gifts, plans, notes and tags, recomputes totals, removes the source and is audited", async () => {
    const { owner: o, org: o2 } = await activeOrg();
    const c = await activeCampaign(o2, o);
    const keep = randomEmail("keep");
    const dupe = randomEmail("dupe");
    await paidDonation(c.id, { email: keep, firstName: "Sam", lastName: "Lee", amount: 2500 });
    await paidDonation(c.id, { email: dupe, firstName: "Sam", lastName: "Lee", amount: 4000 });
    await paidDonation(c.id, { email: dupe, firstName: "Sam", lastName: "Lee", amount: 1000, recurringInterval: "MONTH" });
    const list = (await get(`/api/orgs/${o2.id}/donors`, { token: o.token })).body.data as { id: string; email: string }[];
    const target = list.find((d) => d.email === keep)!.id;
    const source = list.find((d) => d.email === dupe)!.id;
    await patch(`/api/donors/${target}`, { tags: ["gala"] }, { token: o.token });
    await patch(
      `/api/donors/${source}`,
      { tags: ["Gala", "board"], phone: "555 0199", address: ADDRESS, emailOptIn: true },
      { token: o.token },
    );
    await post(`/api/donors/${source}/notes`, { body: "Second record" }, { token: o.token });
    const cookie = await donorSessionCookieFor(source, o2.id);
    expect(cookie).toBeTruthy();
    // The second record also runs a fundraiser page (as a supporter's sign-up leaves it).
    await (await testDb()).update(campaigns).set({ fundraiserDonorId: source }).where(eq(campaigns.id, c.id));

    const res = await post(`/api/donors/${target}/merge`, { sourceDonorId: source }, { token: o.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: target,
      email: keep,
      totalGivenCents: 7500,
      donationCount: 3,
      tags: ["gala", "board"],
      phone: "555 0199",
      address: ADDRESS,
      emailOptIn: false,
    });
    const detail = await get(`/api/donors/${target}`, { token: o.token });
    expect(detail.body.donations).toHaveLength(3);
    expect(detail.body.recurringPlans).toHaveLength(1);
    const notes = await get(`/api/donors/${target}/notes`, { token: o.token });
    expect(notes.body.data.map((n: { body: string }) => n.body)).toEqual(["Second record"]);
    expect((await get(`/api/donors/${source}`, { token: o.token })).status).toBe(404);

    const db = await testDb();
    expect(await db.select().from(donors).where(eq(donors.id, source))).toEqual([]);
    expect(await db.select().from(donorSessions).where(eq(donorSessions.donorId, source))).toEqual([]);
    expect((await db.select().from(recurringPlans).where(eq(recurringPlans.orgId, o2.id))).map((p) => p.donorId)).toEqual([target]);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, o2.id), eq(auditLog.action, "donor.merged")));
    expect(entry).toMatchObject({
      targetId: target,
      data: { mergedDonorId: source, donations: 2, recurringPlans: 1, notes: 1, fundraiserPages: 1 },
    });
    expect((await db.select().from(campaigns).where(eq(campaigns.id, c.id)))[0].fundraiserDonorId).toBe(target);
    const [event] = await db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.orgId, o2.id), eq(webhookEvents.type, "donor.merged")));
    expect((event.payload as { data: unknown }).data).toEqual({ donorId: target, mergedDonorId: source });
    expect(await findViolations(db, [o2.id])).toEqual([]);

    // A renewal of the moved plan now counts for the surviving donor.
    const plan = detail.body.recurringPlans[0];
    expect((await post(`/api/sandbox/subscriptions/${plan.subscriptionId}/renew`, undefined, { token: o.token })).status).toBe(202);
    const after = await get(`/api/donors/${target}`, { token: o.token });
    expect(after.body).toMatchObject({ totalGivenCents: 8500, donationCount: 4 });
    expect(await findViolations(db, [o2.id])).toEqual([]);
  });

  it("POST /api/donors/:id/merge answers 400 for itself or a bad body, 404 for another organization's donor, 409 for an erased one", async () => {
    const a = await insertDonor(org.id);
    const b = await insertDonor(org.id);
    const self = await post(`/api/donors/${a.id}/merge`, { sourceDonorId: a.id }, { token: admin.token });
    expect(self.status).toBe(400);
    expect(self.body.details.fieldErrors.sourceDonorId).toEqual(["A donor cannot be merged into itself"]);
    for (const body of [{}, { sourceDonorId: "" }, { sourceDonorId: 7 }]) {
      expect((await post(`/api/donors/${a.id}/merge`, body, { token: admin.token })).status, JSON.stringify(body)).toBe(400);
    }
    const far = await post(`/api/donors/${a.id}/merge`, { sourceDonorId: foreign.donorId }, { token: admin.token });
    expect(far.status).toBe(404);
    expect(far.body).toEqual({ error: "Donor not found", status: 404 });
    // Merging into another organization's donor: not this admin's organization.
    expect((await post(`/api/donors/${foreign.donorId}/merge`, { sourceDonorId: a.id }, { token: admin.token })).status).toBe(403);
    // And to that organization's owner, the source is another organization's donor.
    expect((await post(`/api/donors/${foreign.donorId}/merge`, { sourceDonorId: a.id }, { token: foreign.owner.token })).status).toBe(404);

    await post(`/api/orgs/${org.id}/donors/${b.id}/erase`, undefined, { token: admin.token });
    const erased = await post(`/api/donors/${a.id}/merge`, { sourceDonorId: b.id }, { token: admin.token });
    expect(erased.status).toBe(409);
    expect(erased.body).toEqual({ error: "An erased donor cannot be merged", status: 409 });
  });

  it("POST /api/donors/:id/merge answers 401, 403 to a non-member and to a MEMBER", async () => {
    const a = await insertDonor(org.id);
    const b = await insertDonor(org.id);
    const body = { sourceDonorId: b.id };
    expect((await post(`/api/donors/${a.id}/merge`, body)).status).toBe(401);
    expect((await post(`/api/donors/${a.id}/merge`, body, { token: stranger.token })).status).toBe(403);
    expect((await post(`/api/donors/${a.id}/merge`, body, { token: member.token })).status).toBe(403);
    expect((await get(`/api/donors/${b.id}`, { token: admin.token })).status).toBe(200);
  });

  it("POST /api/donors/:id/merge refuses with 409 when the tags together would pass 50", async () => {
    const a = await insertDonor(org.id);
    const b = await insertDonor(org.id);
    await patch(`/api/donors/${a.id}`, { tags: Array.from({ length: 30 }, (_, i) => `a${i}`) }, { token: admin.token });
    await patch(`/api/donors/${b.id}`, { tags: Array.from({ length: 30 }, (_, i) => `b${i}`) }, { token: admin.token });
    const res = await post(`/api/donors/${a.id}/merge`, { sourceDonorId: b.id }, { token: admin.token });
    expect(res.status).toBe(409);
    expect((await get(`/api/donors/${b.id}`, { token: admin.token })).status).toBe(200);
  });
});

describe("POST /api/donations: email consent and address", () => {
  it("POST /api/donations keeps emailOptIn and address for the donor until the payment succeeds", async () => {
    const c = await activeCampaign(org, owner, { collectAddress: true });
    expect(c.collectAddress).toBe(true);
    const email = randomEmail("consent");
    const missing = await post("/api/donations", { campaignId: c.id, amount: 2500, email });
    expect(missing.status).toBe(400);
    expect(missing.body.details.fieldErrors.address).toEqual(["Your postal address is required for this gift"]);
    const bad = await post("/api/donations", { campaignId: c.id, amount: 2500, email, address: { ...ADDRESS, country: "ZZ" } });
    expect(bad.body.details.fieldErrors["address.country"]).toBeDefined();

    const started = await startDonation(c.id, { email, emailOptIn: true, address: { ...ADDRESS, line1: "<b>2 Oak Ave</b>" } });
    const before = await get(`/api/donors/${started.donorId}`, { token: member.token });
    expect(before.body).toMatchObject({ emailOptIn: false, address: null });
    expect((await pay(started.clientSecret)).status).toBe("SUCCEEDED");
    const after = await get(`/api/donors/${started.donorId}`, { token: member.token });
    expect(after.body).toMatchObject({ emailOptIn: true, address: { ...ADDRESS, line1: "2 Oak Ave" } });

    // A later paid gift without the box ticked withdraws nothing.
    await paidDonation(c.id, { email, emailOptIn: false, address: ADDRESS });
    expect((await get(`/api/donors/${started.donorId}`, { token: member.token })).body).toMatchObject({
      emailOptIn: true,
      address: ADDRESS,
    });
  });
});
