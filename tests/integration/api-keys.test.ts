/**
 * API keys for external clients: created by an ADMIN (the key shown once, only its hash stored),
 * listed, revoked; `Authorization: Bearer gf_…` acts on the key's own organization with its role
 * (never above its creator's), not on person-only endpoints, rate-limited per key, recording
 * `lastUsedAt` at most once a minute.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { apiKeys } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { resetRateLimiter } from "@/lib/ratelimit";
import { addMember, call, del, get, newCampaign, newOrg, newUser, patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { databaseDump } from "../helpers/dump";
import { startInsideWindow } from "../helpers/rate-window";
import { activeCampaign, activeOrg } from "../helpers/records";

const saved = { ...process.env };
const KEYS = ["PAYMENTS_MODE", "STRIPE_SECRET_KEY", "RATE_LIMIT_AUTHENTICATED_PER_MINUTE"] as const;
function setEnv(values: Partial<Record<(typeof KEYS)[number], string>>) {
  Object.assign(process.env, values);
  resetEnv();
  resetRateLimiter();
}
afterEach(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
  resetRateLimiter();
});

type Created = { id: string; key: string; prefix: string; role: string; name: string } & Record<string, any>;

async function createKey(orgId: string, token: string, body: Record<string, unknown>): Promise<Created> {
  const res = await post(`/api/orgs/${orgId}/api-keys`, body, { token });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function keyRow(id: string) {
  const db = await testDb();
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

/** An organization with its owner and an ADMIN who creates keys. */
async function orgWithAdmin(): Promise<{ owner: TestUser; admin: TestUser; org: { id: string; slug: string } }> {
  const { owner, org } = await newOrg();
  const admin = await newUser("Admin");
  // Signed in once, so the membership is theirs by ID (not an invitation by email).
  expect((await get("/api/orgs", { token: admin.token })).status).toBe(200);
  await addMember(org.id, owner.token, admin, "ADMIN");
  return { owner, admin, org };
}

describe("POST /api/orgs/:idOrSlug/api-keys", () => {
  it("POST /api/orgs/:idOrSlug/api-keys answers the key once (gf_test_ in sandbox); GET lists it without the key", async () => {
    const { admin, org } = await orgWithAdmin();
    const created = await createKey(org.id, admin.token, { name: "CRM sync", role: "ADMIN", expiresAt: "2099-01-01T00:00:00Z" });
    expect(created).toMatchObject({
      name: "CRM sync",
      role: "ADMIN",
      expiresAt: "2099-01-01T00:00:00.000Z",
      lastUsedAt: null,
      createdBy: { id: admin.sub, email: admin.email, name: "Admin" },
    });
    expect(created.key).toMatch(/^gf_test_[0-9A-Za-z]{43}$/);
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.prefix.length).toBeLessThan(created.key.length - 30);
    expect(created.id).toMatch(/^key_/);

    const list = await get(`/api/orgs/${org.slug}/api-keys`, { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const { key: _key, ...withoutKey } = created;
    expect(list.body.data[0]).toEqual(withoutKey);
    expect(list.text).not.toContain(created.key);
  });

  it("POST /api/orgs/:idOrSlug/api-keys makes gf_live_ keys when payments go through Stripe", async () => {
    setEnv({ PAYMENTS_MODE: "stripe", STRIPE_SECRET_KEY: "sk_test_goodfund_api_keys" });
    const { owner, org } = await newOrg();
    const created = await createKey(org.id, owner.token, { name: "Live", role: "MEMBER" });
    expect(created.key).toMatch(/^gf_live_[0-9A-Za-z]{43}$/);
    expect((await get(`/api/orgs/${org.id}/campaigns`, { token: created.key })).status).toBe(200);
  });

  it("POST /api/orgs/:idOrSlug/api-keys refuses the OWNER role, a past expiry and a missing name with 400", async () => {
    const { owner, org } = await newOrg();
    const owned = await post(`/api/orgs/${org.id}/api-keys`, { name: "Too strong", role: "OWNER" }, { token: owner.token });
    expect(owned.status).toBe(400);
    expect(owned.body.details.fieldErrors.role).toBeDefined();
    const past = await post(
      `/api/orgs/${org.id}/api-keys`,
      { name: "Late", role: "MEMBER", expiresAt: "2001-01-01T00:00:00Z" },
      { token: owner.token },
    );
    expect(past.status).toBe(400);
    expect(past.body.details.codes.expiresAt).toEqual([{ code: "not_in_future" }]);
    const unnamed = await post(`/api/orgs/${org.id}/api-keys`, { name: "  ", role: "MEMBER" }, { token: owner.token });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.details.fieldErrors.name).toBeDefined();
  });

  it("POST /api/orgs/:idOrSlug/api-keys by a MEMBER answers 403", async () => {
    const { owner, org } = await newOrg();
    const member = await newUser();
    await addMember(org.id, owner.token, member, "MEMBER");
    const res = await post(`/api/orgs/${org.id}/api-keys`, { name: "Mine", role: "MEMBER" }, { token: member.token });
    expect(res.status).toBe(403);
  });

  it("keys are never stored in the clear: a dump of the database holds their hashes and prefixes, not the keys", async () => {
    const { owner, org } = await newOrg();
    const created = [
      await createKey(org.id, owner.token, { name: "Dump A", role: "ADMIN" }),
      await createKey(org.id, owner.token, { name: "Dump B", role: "MEMBER", expiresAt: "2099-06-01T00:00:00Z" }),
    ];
    // Used once, so every write path (create, lastUsedAt) has run.
    for (const k of created) expect((await get(`/api/orgs/${org.id}`, { token: k.key })).status).toBe(200);
    const dump = await databaseDump(["api_keys"]);
    for (const k of created) {
      expect(dump, "the key's row is in the dump").toContain(k.prefix);
      expect(dump, "its hash is in the dump").toContain((await keyRow(k.id)).keyHash);
      expect(dump.includes(k.key), "a key found in the dump").toBe(false);
      expect(dump.includes(k.key.slice(k.prefix.length)), "a key's secret part found in the dump").toBe(false);
    }
  });
});

describe("Authorization: Bearer gf_…", () => {
  it("a MEMBER key reads its organization but its writes answer 403; an ADMIN key creates a campaign", async () => {
    const { admin, org } = await orgWithAdmin();
    const member = await createKey(org.id, admin.token, { name: "Reader", role: "MEMBER" });
    const writer = await createKey(org.id, admin.token, { name: "Writer", role: "ADMIN" });

    expect((await get(`/api/orgs/${org.id}/campaigns`, { token: member.key })).status).toBe(200);
    expect((await get(`/api/orgs/${org.slug}`, { token: member.key })).status).toBe(200);
    const refused = await post(`/api/orgs/${org.id}/campaigns`, { title: "By a reader" }, { token: member.key });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: "Forbidden", status: 403 });

    const made = await post(`/api/orgs/${org.id}/campaigns`, { title: "By a key" }, { token: writer.key });
    expect(made.status, made.text).toBe(201);
    expect((await patch(`/api/campaigns/${made.body.id}`, { title: "Renamed by a key" }, { token: writer.key })).status).toBe(200);
    expect((await get(`/api/campaigns/${made.body.id}`, { token: member.key })).body.title).toBe("Renamed by a key");
  });

  it("a key acts on its own organization only: another organization's endpoints and resources answer 403", async () => {
    const { owner, org } = await newOrg();
    const other = await newOrg(owner);
    const otherCampaign = await newCampaign(other.org, owner.token);
    const key = await createKey(org.id, owner.token, { name: "Scoped", role: "ADMIN" });
    for (const path of [`/api/orgs/${other.org.id}`, `/api/orgs/${other.org.slug}/campaigns`, `/api/campaigns/${otherCampaign.id}`]) {
      const res = await get(path, { token: key.key });
      expect(res.status, path).toBe(403);
    }
    expect((await post(`/api/orgs/${other.org.id}/campaigns`, { title: "Elsewhere" }, { token: key.key })).status).toBe(403);
    // Unknown organizations are still 404 (existence first, then permission).
    expect((await get(`/api/orgs/org_unknown00000000000000`, { token: key.key })).status).toBe(404);
  });

  it("GET /api/orgs with a key lists just its organization, with the key's role", async () => {
    const { owner, org } = await newOrg();
    await newOrg(owner);
    const key = await createKey(org.id, owner.token, { name: "Lister", role: "MEMBER" });
    expect((await get("/api/orgs", { token: owner.token })).body.data.length).toBeGreaterThanOrEqual(2);
    const res = await get("/api/orgs", { token: key.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ id: org.id, slug: org.slug, role: "MEMBER" });
    expect(res.body.pagination).toMatchObject({ total: 1 });
  });

  it("endpoints that need a person answer 403 to an ADMIN key: creating organizations, managing members and API keys", async () => {
    const { owner, org } = await newOrg();
    const member = await newUser();
    await addMember(org.id, owner.token, member, "MEMBER");
    const key = await createKey(org.id, owner.token, { name: "Admin key", role: "ADMIN" });
    const other = await createKey(org.id, owner.token, { name: "Another", role: "MEMBER" });
    const attempts = [
      await post("/api/orgs", { name: "By a key" }, { token: key.key }),
      await post(`/api/orgs/${org.id}/members`, { email: "new@example.org", role: "MEMBER" }, { token: key.key }),
      await patch(`/api/orgs/${org.id}/members/${member.sub}`, { role: "ADMIN" }, { token: key.key }),
      await del(`/api/orgs/${org.id}/members/${member.sub}`, { token: key.key }),
      await post(`/api/orgs/${org.id}/api-keys`, { name: "Spawned", role: "MEMBER" }, { token: key.key }),
      await del(`/api/orgs/${org.id}/api-keys/${other.id}`, { token: key.key }),
    ];
    for (const res of attempts) expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    // Reading is not managing: the key may list members and keys.
    expect((await get(`/api/orgs/${org.id}/members`, { token: key.key })).status).toBe(200);
    expect((await get(`/api/orgs/${org.id}/api-keys`, { token: key.key })).body.data).toHaveLength(2);
  });

  it("DELETE /api/orgs/:idOrSlug/api-keys/:id revokes: the key answers 401 from then on and leaves the list", async () => {
    const { admin, org } = await orgWithAdmin();
    const key = await createKey(org.id, admin.token, { name: "Short-lived", role: "MEMBER" });
    expect((await get(`/api/orgs/${org.id}`, { token: key.key })).status).toBe(200);
    const revoked = await del(`/api/orgs/${org.id}/api-keys/${key.id}`, { token: admin.token });
    expect(revoked.status).toBe(204);
    const after = await get(`/api/orgs/${org.id}`, { token: key.key });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: "Unauthorized", status: 401 });
    expect((await get(`/api/orgs/${org.id}/api-keys`, { token: admin.token })).body.data).toEqual([]);
    expect((await keyRow(key.id)).revokedAt).toBeInstanceOf(Date);
    const again = await del(`/api/orgs/${org.id}/api-keys/${key.id}`, { token: admin.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: "API key not found", status: 404 });
  });

  it("an expired key answers 401", async () => {
    const { owner, org } = await newOrg();
    const key = await createKey(org.id, owner.token, {
      name: "Expiring",
      role: "MEMBER",
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect((await get(`/api/orgs/${org.id}`, { token: key.key })).status).toBe(200);
    await (
      await testDb()
    )
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, key.id));
    const res = await get(`/api/orgs/${org.id}`, { token: key.key });
    expect(res.status).toBe(401);
    // Still listed, with its expiry, so an admin sees why it stopped working.
    expect((await get(`/api/orgs/${org.id}/api-keys`, { token: owner.token })).body.data.map((k: Created) => k.id)).toEqual([key.id]);
  });

  it("unknown, malformed and tampered keys answer 401", async () => {
    const { owner, org } = await newOrg();
    const key = await createKey(org.id, owner.token, { name: "Real", role: "MEMBER" });
    const last = key.key.at(-1) === "a" ? "b" : "a";
    for (const bad of [`${key.key.slice(0, -1)}${last}`, "gf_test_short", `gf_live_${key.key.slice(8)}`, `${key.key}x`]) {
      expect((await get(`/api/orgs/${org.id}`, { token: bad })).status, bad).toBe(401);
    }
  });

  it("a key never outranks its creator: demoting the creator caps the key; removing the creator disables it", async () => {
    const { owner, admin, org } = await orgWithAdmin();
    const key = await createKey(org.id, admin.token, { name: "Admin's key", role: "ADMIN" });
    expect((await post(`/api/orgs/${org.id}/campaigns`, { title: "Before" }, { token: key.key })).status).toBe(201);

    expect((await patch(`/api/orgs/${org.id}/members/${admin.sub}`, { role: "MEMBER" }, { token: owner.token })).status).toBe(200);
    expect((await post(`/api/orgs/${org.id}/campaigns`, { title: "After" }, { token: key.key })).status).toBe(403);
    expect((await get(`/api/orgs/${org.id}/campaigns`, { token: key.key })).status).toBe(200);
    expect((await get("/api/orgs", { token: key.key })).body.data[0].role).toBe("MEMBER");

    expect((await del(`/api/orgs/${org.id}/members/${admin.sub}`, { token: owner.token })).status).toBe(204);
    expect((await get(`/api/orgs/${org.id}/campaigns`, { token: key.key })).status).toBe(401);
  });

  it("records lastUsedAt, written at most once a minute", async () => {
    const { owner, org } = await newOrg();
    const key = await createKey(org.id, owner.token, { name: "Used", role: "MEMBER" });
    const before = Date.now();
    await get(`/api/orgs/${org.id}`, { token: key.key });
    const first = (await keyRow(key.id)).lastUsedAt!;
    expect(first.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const listed = (await get(`/api/orgs/${org.id}/api-keys`, { token: owner.token })).body.data[0];
    expect(listed.lastUsedAt).toBe(first.toISOString());

    // Used again within the minute: not written again.
    const recent = new Date(Date.now() - 30_000);
    await (await testDb()).update(apiKeys).set({ lastUsedAt: recent }).where(eq(apiKeys.id, key.id));
    await get(`/api/orgs/${org.id}`, { token: key.key });
    expect((await keyRow(key.id)).lastUsedAt!.getTime()).toBe(recent.getTime());

    // Over a minute later: written.
    await (
      await testDb()
    )
      .update(apiKeys)
      .set({ lastUsedAt: new Date(Date.now() - 61_000) })
      .where(eq(apiKeys.id, key.id));
    const now = Date.now();
    await get(`/api/orgs/${org.id}`, { token: key.key });
    expect((await keyRow(key.id)).lastUsedAt!.getTime()).toBeGreaterThanOrEqual(now - 1000);
  });

  it("each key is rate-limited on its own at the authenticated limit, with the X-RateLimit-* headers", async () => {
    const { owner, org } = await newOrg();
    const a = await createKey(org.id, owner.token, { name: "A", role: "MEMBER" });
    const b = await createKey(org.id, owner.token, { name: "B", role: "MEMBER" });
    setEnv({ RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "3" });
    const path = `/api/orgs/${org.id}/campaigns`;
    const remaining: string[] = [];
    await startInsideWindow(5_000);
    for (let i = 0; i < 3; i++) {
      const res = await get(path, { token: a.key });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("3");
      expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
      remaining.push(res.headers.get("x-ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    const limited = await get(path, { token: a.key });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another key, and the person who made them, count separately.
    const other = await get(path, { token: b.key });
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("2");
    expect((await get(path, { token: owner.token })).status).toBe(200);
  });

  it("the same-origin rule for cookie-authenticated writes does not apply to keys", async () => {
    const { owner, org } = await newOrg();
    const key = await createKey(org.id, owner.token, { name: "Server", role: "ADMIN" });
    const res = await call("POST", `/api/orgs/${org.id}/campaigns`, {
      token: key.key,
      body: { title: "From a server" },
      headers: { "sec-fetch-site": "cross-site", origin: "https://elsewhere.example" },
    });
    expect(res.status, res.text).toBe(201);
  });

  it("public endpoints ignore keys, even a bad one", async () => {
    const { owner, org } = await activeOrg();
    const campaign = await activeCampaign(org, owner);
    for (const token of ["gf_test_notarealkey", (await createKey(org.id, owner.token, { name: "Any", role: "MEMBER" })).key]) {
      const res = await get(`/api/public/campaigns/${campaign.id}`, { token });
      expect(res.status, res.text).toBe(200);
    }
  });
});

/** Postgres: `pg_dump` of the test database plus every row as text; PGlite: every row of every table as text. */
