/**
 * The audit log: every staff change made through the API writes exactly one entry (actor, action,
 * target, request ID, client IP, what changed) in the transaction of the change; a refused change
 * writes none, and a change whose entry cannot be written does not happen. GET
 * /api/orgs/:idOrSlug/audit-log is for admins, newest first, cursor-paged and filtered. The table
 * refuses UPDATE and DELETE.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, campaigns, webhookEndpoints } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { addMember, del, get, newCampaign, newOrg, newUser, patch, post, randomIp, type CallOptions, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { activeCampaign, activeOrg, paidDonation, rowsOf, type Org } from "../helpers/records";

const savedFlag = process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
beforeAll(() => {
  // Webhook endpoints on a local address; they subscribe to payouts only, so nothing is ever sent.
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  resetEnv();
});
afterAll(() => {
  if (savedFlag === undefined) delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  else process.env.ALLOW_PRIVATE_WEBHOOK_URLS = savedFlag;
  resetEnv();
});

/** One request's identity: its X-Request-Id and the client IP it comes from. */
function origin() {
  const requestId = `req-audit-${randomBytes(6).toString("hex")}`;
  const ip = randomIp();
  return { requestId, ip, opts: (token: string): CallOptions => ({ token, ip, headers: { "X-Request-Id": requestId } }) };
}

async function entriesOf(requestId: string) {
  const db = await testDb();
  return db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
}

type Expected = {
  orgId: string;
  action: string;
  actor: { type: "user" | "api_key"; id: string; label: string };
  target: { type: string; id: string | null };
  data?: Record<string, unknown>;
};

/** Exactly one entry carries the request's ID, and it says what was expected. */
async function expectOneEntry(o: ReturnType<typeof origin>, expected: Expected) {
  const rows = await entriesOf(o.requestId);
  expect(rows, JSON.stringify(rows)).toHaveLength(1);
  const [e] = rows;
  expect(e).toMatchObject({
    orgId: expected.orgId,
    action: expected.action,
    actorType: expected.actor.type,
    actorId: expected.actor.id,
    actorLabel: expected.actor.label,
    targetType: expected.target.type,
    targetId: expected.target.id,
    requestId: o.requestId,
    clientIp: o.ip,
  });
  if (expected.data) expect(e.data).toMatchObject(expected.data);
  return e;
}

const userActor = (u: TestUser) => ({ type: "user" as const, id: u.sub, label: u.email });

/** Signs the identity in once, so the user record is the token's subject (not an invitation by email). */
async function signedIn(u: TestUser) {
  expect((await get("/api/orgs", { token: u.token })).status).toBe(200);
  return u;
}

describe("audit entries of campaign changes", () => {
  it("POST /api/orgs/:idOrSlug/campaigns records campaign.created", async () => {
    const { owner, org } = await newOrg();
    const o = origin();
    const res = await post(`/api/orgs/${org.id}/campaigns`, { title: "Audited appeal" }, o.opts(owner.token));
    expect(res.status, res.text).toBe(201);
    await expectOneEntry(o, {
      orgId: org.id,
      action: "campaign.created",
      actor: userActor(owner),
      target: { type: "campaign", id: res.body.id },
      data: { title: "Audited appeal", slug: res.body.slug, status: "DRAFT", type: "DONATION" },
    });
  });

  it("PATCH /api/campaigns/:id records campaign.updated with the changed fields and their new values", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token, { goalAmountCents: 100_000 });
    const o = origin();
    const res = await patch(
      `/api/campaigns/${c.id}`,
      { title: "Renamed appeal", goalAmountCents: 100_000, showGoal: false },
      o.opts(owner.token),
    );
    expect(res.status, res.text).toBe(200);
    const e = await expectOneEntry(o, {
      orgId: org.id,
      action: "campaign.updated",
      actor: userActor(owner),
      target: { type: "campaign", id: c.id },
    });
    // The goal was sent unchanged: only what changed is recorded.
    expect(e.data).toEqual({ changes: { title: "Renamed appeal", showGoal: false } });
  });

  it("PATCH /api/campaigns/:id with a new status records campaign.status_changed from and to", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token);
    const o = origin();
    const res = await patch(`/api/campaigns/${c.id}`, { status: "ACTIVE" }, o.opts(owner.token));
    expect(res.status, res.text).toBe(200);
    const e = await expectOneEntry(o, {
      orgId: org.id,
      action: "campaign.status_changed",
      actor: userActor(owner),
      target: { type: "campaign", id: c.id },
    });
    expect(e.data).toEqual({ from: "DRAFT", to: "ACTIVE" });
  });

  it("DELETE /api/campaigns/:id records campaign.deleted, naming what was deleted", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token, { title: "Short-lived draft" });
    const o = origin();
    const res = await del(`/api/campaigns/${c.id}`, o.opts(owner.token));
    expect(res.status, res.text).toBe(204);
    await expectOneEntry(o, {
      orgId: org.id,
      action: "campaign.deleted",
      actor: userActor(owner),
      target: { type: "campaign", id: c.id },
      data: { title: "Short-lived draft", slug: c.slug },
    });
  });

  it("a PATCH refused by a rule, an illegal status change or a taken slug writes no entry and changes nothing", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token, { title: "Steady", startDate: "2030-01-01T00:00:00Z" });
    const other = await newCampaign(org, owner.token, { title: "Other" });
    const attempts: [Record<string, unknown>, number][] = [
      [{ title: "Changed", endDate: "2029-01-01T00:00:00Z" }, 400],
      [{ title: "Changed", status: "ENDED" }, 409],
      [{ title: "Changed", slug: other.slug }, 409],
    ];
    for (const [body, status] of attempts) {
      const o = origin();
      const res = await patch(`/api/campaigns/${c.id}`, body, o.opts(owner.token));
      expect(res.status, res.text).toBe(status);
      expect(await entriesOf(o.requestId)).toHaveLength(0);
    }
    expect((await get(`/api/campaigns/${c.id}`, { token: owner.token })).body.title).toBe("Steady");
  });

  it("a change whose audit entry cannot be written is not made: the entry is in the change's transaction", async () => {
    const { owner, org } = await newOrg();
    const c = await newCampaign(org, owner.token, { title: "Before" });
    const db = await testDb();
    const doomed = `Doomed ${randomBytes(4).toString("hex")}`;
    // A trigger that refuses exactly this change's entry, so the failure comes after the UPDATE ran.
    await db.execute(
      sql.raw(`CREATE FUNCTION audit_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.data -> 'changes' ->> 'title' = '${doomed}' THEN RAISE EXCEPTION 'refused by the test'; END IF;
  RETURN NEW;
END;
$$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER audit_test_refuse BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_test_refuse()`),
    );
    try {
      const o = origin();
      const res = await patch(`/api/campaigns/${c.id}`, { title: doomed }, o.opts(owner.token));
      expect(res.status).toBe(500);
      const [row] = await db.select({ title: campaigns.title }).from(campaigns).where(eq(campaigns.id, c.id));
      expect(row.title).toBe("Before");
      expect(await entriesOf(o.requestId)).toHaveLength(0);
    } finally {
      await db.execute(sql.raw(`DROP TRIGGER audit_test_refuse ON audit_log`));
      await db.execute(sql.raw(`DROP FUNCTION audit_test_refuse()`));
    }
  });
});

describe("audit entries of money changes", () => {
  let owner: TestUser;
  let org: Org;
  let campaignId: string;
  beforeAll(async () => {
    ({ owner, org } = await activeOrg());
    campaignId = (await activeCampaign(org, owner)).id;
  });

  it("POST /api/donations/:id/refund records donation.refunded; a refused refund records nothing", async () => {
    const paid = await paidDonation(campaignId, { amount: 4200 });
    const o = origin();
    const res = await post(`/api/donations/${paid.id}/refund`, undefined, o.opts(owner.token));
    expect(res.status, res.text).toBe(200);
    await expectOneEntry(o, {
      orgId: org.id,
      action: "donation.refunded",
      actor: userActor(owner),
      target: { type: "donation", id: paid.id },
      data: { amountCents: paid.amount + paid.feeCents, currency: "usd" },
    });
    const again = origin();
    expect((await post(`/api/donations/${paid.id}/refund`, undefined, again.opts(owner.token))).status).toBe(409);
    expect(await entriesOf(again.requestId)).toHaveLength(0);
  });

  it("POST /api/recurring-plans/:id/cancel records recurring_plan.canceled", async () => {
    const paid = await paidDonation(campaignId, { amount: 1500, recurringInterval: "MONTH" });
    const o = origin();
    const res = await post(`/api/recurring-plans/${paid.recurringPlanId}/cancel`, undefined, o.opts(owner.token));
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("CANCELED");
    await expectOneEntry(o, {
      orgId: org.id,
      action: "recurring_plan.canceled",
      actor: userActor(owner),
      target: { type: "recurring_plan", id: paid.recurringPlanId },
      data: { status: "CANCELED" },
    });
  });

  it("POST /api/orgs/:idOrSlug/processor/onboarding records payouts.onboarding_started", async () => {
    const { owner: o2, org: fresh } = await newOrg();
    const o = origin();
    const res = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, o.opts(o2.token));
    expect(res.status, res.text).toBe(200);
    await expectOneEntry(o, {
      orgId: fresh.id,
      action: "payouts.onboarding_started",
      actor: userActor(o2),
      target: { type: "organization", id: fresh.id },
      data: { processorAccountId: res.body.processorAccountId },
    });
  });
});

describe("audit entries of the organization, its members, keys and webhooks", () => {
  it("PATCH /api/orgs/:idOrSlug records organization.updated with the changed fields", async () => {
    const { owner, org } = await newOrg();
    const o = origin();
    const res = await patch(`/api/orgs/${org.id}`, { legalName: "Audited Inc.", color: "#123456" }, o.opts(owner.token));
    expect(res.status, res.text).toBe(200);
    await expectOneEntry(o, {
      orgId: org.id,
      action: "organization.updated",
      actor: userActor(owner),
      target: { type: "organization", id: org.id },
      data: { changes: { legalName: "Audited Inc.", color: "#123456" } },
    });
  });

  it("members: adding, changing a role and removing each record one entry naming the member", async () => {
    const { owner, org } = await newOrg();
    const person = await signedIn(await newUser("Sam"));
    const added = origin();
    expect((await post(`/api/orgs/${org.id}/members`, { email: person.email, role: "MEMBER" }, added.opts(owner.token))).status).toBe(201);
    await expectOneEntry(added, {
      orgId: org.id,
      action: "member.added",
      actor: userActor(owner),
      target: { type: "member", id: person.sub },
      data: { email: person.email, role: "MEMBER" },
    });

    const changed = origin();
    expect((await patch(`/api/orgs/${org.id}/members/${person.sub}`, { role: "ADMIN" }, changed.opts(owner.token))).status).toBe(200);
    await expectOneEntry(changed, {
      orgId: org.id,
      action: "member.role_changed",
      actor: userActor(owner),
      target: { type: "member", id: person.sub },
      data: { from: "MEMBER", role: "ADMIN" },
    });

    // Demoting the last owner is refused: no entry.
    const refused = origin();
    expect((await patch(`/api/orgs/${org.id}/members/${owner.sub}`, { role: "ADMIN" }, refused.opts(owner.token))).status).toBe(409);
    expect(await entriesOf(refused.requestId)).toHaveLength(0);

    const removed = origin();
    expect((await del(`/api/orgs/${org.id}/members/${person.sub}`, removed.opts(owner.token))).status).toBe(204);
    await expectOneEntry(removed, {
      orgId: org.id,
      action: "member.removed",
      actor: userActor(owner),
      target: { type: "member", id: person.sub },
      data: { email: person.email, role: "ADMIN" },
    });
  });

  it("API keys: creating and revoking record entries without the key; a change made with a key names the key", async () => {
    const { owner, org } = await newOrg();
    const created = origin();
    const res = await post(`/api/orgs/${org.id}/api-keys`, { name: "CRM sync", role: "ADMIN" }, created.opts(owner.token));
    expect(res.status, res.text).toBe(201);
    const key = res.body as { id: string; key: string; prefix: string };
    const entry = await expectOneEntry(created, {
      orgId: org.id,
      action: "api_key.created",
      actor: userActor(owner),
      target: { type: "api_key", id: key.id },
      data: { name: "CRM sync", role: "ADMIN", prefix: key.prefix },
    });
    expect(JSON.stringify(entry)).not.toContain(key.key);

    // The key itself acts: its changes are recorded under the key, by its name.
    const byKey = origin();
    const c = await post(`/api/orgs/${org.id}/campaigns`, { title: "Made by a key" }, byKey.opts(key.key));
    expect(c.status, c.text).toBe(201);
    await expectOneEntry(byKey, {
      orgId: org.id,
      action: "campaign.created",
      actor: { type: "api_key", id: key.id, label: "CRM sync" },
      target: { type: "campaign", id: c.body.id },
    });
    const keyPatch = origin();
    expect((await patch(`/api/campaigns/${c.body.id}`, { status: "ACTIVE" }, keyPatch.opts(key.key))).status).toBe(200);
    await expectOneEntry(keyPatch, {
      orgId: org.id,
      action: "campaign.status_changed",
      actor: { type: "api_key", id: key.id, label: "CRM sync" },
      target: { type: "campaign", id: c.body.id },
    });

    const revoked = origin();
    expect((await del(`/api/orgs/${org.id}/api-keys/${key.id}`, revoked.opts(owner.token))).status).toBe(204);
    await expectOneEntry(revoked, {
      orgId: org.id,
      action: "api_key.revoked",
      actor: userActor(owner),
      target: { type: "api_key", id: key.id },
      data: { name: "CRM sync", prefix: key.prefix },
    });
  });

  it("webhook endpoints: create, update, rotate and delete each record one entry, never the secret", async () => {
    const { owner, org } = await newOrg();
    const base = `/api/orgs/${org.id}/webhook-endpoints`;
    const created = origin();
    const res = await post(base, { url: "http://127.0.0.1:9/audit", eventTypes: ["payout.paid"] }, created.opts(owner.token));
    expect(res.status, res.text).toBe(201);
    const endpoint = res.body as { id: string; secret: string };
    const target = { type: "webhook_endpoint", id: endpoint.id };
    const e1 = await expectOneEntry(created, {
      orgId: org.id,
      action: "webhook_endpoint.created",
      actor: userActor(owner),
      target,
      data: { url: "http://127.0.0.1:9/audit", eventTypes: ["payout.paid"] },
    });
    expect(JSON.stringify(e1)).not.toContain(endpoint.secret);

    const updated = origin();
    expect((await patch(`${base}/${endpoint.id}`, { description: "CRM", enabled: false }, updated.opts(owner.token))).status).toBe(200);
    await expectOneEntry(updated, {
      orgId: org.id,
      action: "webhook_endpoint.updated",
      actor: userActor(owner),
      target,
      data: { changes: { description: "CRM", enabled: false } },
    });

    const rotated = origin();
    const rot = await patch(`${base}/${endpoint.id}`, { rotateSecret: true }, rotated.opts(owner.token));
    expect(rot.status, rot.text).toBe(200);
    const e3 = await expectOneEntry(rotated, { orgId: org.id, action: "webhook_endpoint.secret_rotated", actor: userActor(owner), target });
    expect(e3.data).toBeNull();
    expect(JSON.stringify(e3)).not.toContain(rot.body.secret);

    const deleted = origin();
    expect((await del(`${base}/${endpoint.id}`, deleted.opts(owner.token))).status).toBe(204);
    await expectOneEntry(deleted, {
      orgId: org.id,
      action: "webhook_endpoint.deleted",
      actor: userActor(owner),
      target,
      data: { url: "http://127.0.0.1:9/audit" },
    });
  });
});

describe("webhook endpoint URLs and the audit log", () => {
  it("a URL with a user name or password is refused with 400 on url (create and update), and nothing is recorded", async () => {
    const { owner, org } = await newOrg();
    const base = `/api/orgs/${org.id}/webhook-endpoints`;
    for (const url of ["http://alice:s3cret@127.0.0.1:9/hooks", "http://alice@127.0.0.1:9/hooks", "http://:s3cret@127.0.0.1:9/hooks"]) {
      const o = origin();
      const res = await post(base, { url, eventTypes: ["payout.paid"] }, o.opts(owner.token));
      expect(res.status, res.text).toBe(400);
      expect(res.body.details.fieldErrors.url).toEqual([
        "Must not contain a user name or password; deliveries are signed with the endpoint's secret",
      ]);
      expect(res.body.details.codes.url).toEqual([{ code: "url_credentials" }]);
      expect(await entriesOf(o.requestId)).toEqual([]);
    }
    const made = await post(base, { url: "http://127.0.0.1:9/hooks", eventTypes: ["payout.paid"] }, { token: owner.token });
    expect(made.status, made.text).toBe(201);
    const o = origin();
    const res = await patch(`${base}/${made.body.id}`, { url: "http://bob:pw@127.0.0.1:9/hooks" }, o.opts(owner.token));
    expect(res.status).toBe(400);
    expect(res.body.details.codes.url).toEqual([{ code: "url_credentials" }]);
    expect(await entriesOf(o.requestId)).toEqual([]);
    const db = await testDb();
    const [stored] = await db.select({ url: webhookEndpoints.url }).from(webhookEndpoints).where(eq(webhookEndpoints.id, made.body.id));
    expect(stored.url).toBe("http://127.0.0.1:9/hooks");
  });

  it("records endpoint URLs without their query string or fragment; the endpoint keeps its full URL", async () => {
    const { owner, org } = await newOrg();
    const base = `/api/orgs/${org.id}/webhook-endpoints`;
    const created = origin();
    const res = await post(
      base,
      { url: "http://127.0.0.1:9/hooks?token=abc123#frag", eventTypes: ["payout.paid"] },
      created.opts(owner.token),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.url).toBe("http://127.0.0.1:9/hooks?token=abc123#frag");
    const target = { type: "webhook_endpoint", id: res.body.id };
    await expectOneEntry(created, {
      orgId: org.id,
      action: "webhook_endpoint.created",
      actor: userActor(owner),
      target,
      data: { url: "http://127.0.0.1:9/hooks", eventTypes: ["payout.paid"] },
    });

    const updated = origin();
    const moved = await patch(`${base}/${res.body.id}`, { url: "http://127.0.0.1:9/v2?token=def456" }, updated.opts(owner.token));
    expect(moved.status, moved.text).toBe(200);
    await expectOneEntry(updated, {
      orgId: org.id,
      action: "webhook_endpoint.updated",
      actor: userActor(owner),
      target,
      data: { changes: { url: "http://127.0.0.1:9/v2" } },
    });

    const deleted = origin();
    expect((await del(`${base}/${res.body.id}`, deleted.opts(owner.token))).status).toBe(204);
    await expectOneEntry(deleted, {
      orgId: org.id,
      action: "webhook_endpoint.deleted",
      actor: userActor(owner),
      target,
      data: { url: "http://127.0.0.1:9/v2" },
    });
    const everything =
      JSON.stringify(await entriesOf(created.requestId)) +
      JSON.stringify(await entriesOf(updated.requestId)) +
      JSON.stringify(await entriesOf(deleted.requestId));
    expect(everything).not.toContain("abc123");
    expect(everything).not.toContain("def456");
  });
});

describe("GET /api/orgs/:idOrSlug/audit-log", () => {
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let org: Org;
  beforeAll(async () => {
    ({ owner, org } = await newOrg());
    // Signed in before being added, so their memberships (and entries) are under their own IDs.
    admin = await signedIn(await newUser("Admin"));
    member = await signedIn(await newUser("Member"));
    await addMember(org.id, owner.token, admin, "ADMIN");
    await addMember(org.id, owner.token, member, "MEMBER");
    // Five changes by the owner, two by the admin (besides the two member additions).
    for (let i = 1; i <= 5; i++) await newCampaign(org, owner.token, { title: `Owner campaign ${i}` });
    for (let i = 1; i <= 2; i++) await newCampaign(org, admin.token, { title: `Admin campaign ${i}` });
  });

  it("GET /api/orgs/:idOrSlug/audit-log without a token answers 401, to a MEMBER 403, to an ADMIN 200", async () => {
    expect((await get(`/api/orgs/${org.id}/audit-log`)).status).toBe(401);
    const forMember = await get(`/api/orgs/${org.id}/audit-log`, { token: member.token });
    expect(forMember.status).toBe(403);
    expect(forMember.body.error).toBe("Forbidden");
    const forAdmin = await get(`/api/orgs/${org.slug}/audit-log`, { token: admin.token });
    expect(forAdmin.status, forAdmin.text).toBe(200);
    const [newest] = forAdmin.body.data;
    expect(newest).toMatchObject({
      action: "campaign.created",
      actor: { type: "user", id: admin.sub, label: admin.email },
      target: { type: "campaign" },
      data: { title: "Admin campaign 2" },
    });
    expect(Object.keys(newest).sort()).toEqual(["action", "actor", "clientIp", "createdAt", "data", "id", "requestId", "target"]);
    expect(newest.requestId).toMatch(/\S/);
  });

  it("GET /api/orgs/:idOrSlug/audit-log pages newest first with the cursor, without repeats or gaps", async () => {
    const all = (await get(`/api/orgs/${org.id}/audit-log?limit=100`, { token: owner.token })).body.data as {
      id: string;
      action: string;
    }[];
    expect(all).toHaveLength(9);
    const ids = all.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const qs: string = `limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const page = await get(`/api/orgs/${org.id}/audit-log?${qs}`, { token: owner.token });
      expect(page.status, page.text).toBe(200);
      expect(page.body.pagination.limit).toBe(4);
      seen.push(...page.body.data.map((e: { id: string }) => e.id));
      cursor = page.body.pagination.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((e) => e.id));
  });

  it("GET /api/orgs/:idOrSlug/audit-log filters by action and by actor, together too", async () => {
    const added = await get(`/api/orgs/${org.id}/audit-log?action=member.added`, { token: owner.token });
    expect(added.body.data.map((e: any) => e.target.id).sort()).toEqual([admin.sub, member.sub].sort());

    const byAdmin = await get(`/api/orgs/${org.id}/audit-log?actor=${admin.sub}`, { token: owner.token });
    expect(byAdmin.body.data.map((e: any) => e.data.title)).toEqual(["Admin campaign 2", "Admin campaign 1"]);

    const both = await get(`/api/orgs/${org.id}/audit-log?actor=${owner.sub}&action=campaign.created&limit=2`, { token: owner.token });
    expect(both.body.data.map((e: any) => e.data.title)).toEqual(["Owner campaign 5", "Owner campaign 4"]);
    const next = await get(
      `/api/orgs/${org.id}/audit-log?actor=${owner.sub}&action=campaign.created&limit=2&cursor=${both.body.pagination.nextCursor}`,
      {
        token: owner.token,
      },
    );
    expect(next.body.data.map((e: any) => e.data.title)).toEqual(["Owner campaign 3", "Owner campaign 2"]);

    const none = await get(`/api/orgs/${org.id}/audit-log?action=donation.refunded`, { token: owner.token });
    expect(none.body).toEqual({ data: [], pagination: { limit: 25, nextCursor: null } });
  });

  it("GET /api/orgs/:idOrSlug/audit-log answers 400 on an unknown action or a malformed cursor", async () => {
    const badAction = await get(`/api/orgs/${org.id}/audit-log?action=campaign.exploded`, { token: owner.token });
    expect(badAction.status).toBe(400);
    expect(badAction.body.details.fieldErrors.action).toBeDefined();
    const badCursor = await get(`/api/orgs/${org.id}/audit-log?cursor=not-a-cursor`, { token: owner.token });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.details.fieldErrors.cursor).toEqual(["Invalid cursor"]);
  });

  it("GET /api/orgs/:idOrSlug/audit-log shows one organization's entries only", async () => {
    const { owner: otherOwner, org: other } = await newOrg();
    await newCampaign(other, otherOwner.token, { title: "Elsewhere" });
    const mine = await get(`/api/orgs/${org.id}/audit-log?limit=100`, { token: owner.token });
    expect(mine.body.data.some((e: any) => e.data?.title === "Elsewhere")).toBe(false);
    expect((await get(`/api/orgs/${other.id}/audit-log`, { token: owner.token })).status).toBe(403);
  });
});

describe("the audit_log table", () => {
  it("refuses UPDATE and DELETE of entries", async () => {
    const { owner, org } = await newOrg();
    await newCampaign(org, owner.token);
    const db = await testDb();
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.orgId, org.id));
    await expect(db.execute(sql`UPDATE audit_log SET action = 'campaign.deleted' WHERE id = ${entry.id}`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM audit_log WHERE id = ${entry.id}`)).rejects.toThrow();
    await expect(db.execute(sql`DELETE FROM audit_log WHERE org_id = ${org.id}`)).rejects.toThrow();
    const after = await rowsOf<{ action: string }>(sql`SELECT action FROM audit_log WHERE id = ${entry.id}`);
    expect(after).toEqual([{ action: "campaign.created" }]);
  });
});
