/**
 * Idempotency-Key on POST requests, through the real route handlers and database: replays,
 * mismatches, in-progress claims, concurrent retries, failures that free the key, the worker's
 * sweep, and answers stored encrypted.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { campaigns, donations, idempotencyKeys, organizations, users } from "@/db/schema";
import { claimIdempotencyKey } from "@/lib/api/idempotency";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { del, get, newCampaign, newOrg, newUser, post, randomIp, type ApiResponse, type TestUser } from "../helpers/api";
import { call } from "../helpers/api";
import { testDb } from "../helpers/db";
import { fixture, signedDelivery } from "../fixtures/processor";
import { newAccount, newAccountLink, ok, stripeError, unrecognized, useFakeStripe } from "../helpers/fake-stripe";

type Org = { id: string; slug: string } & Record<string, any>;

const newKey = () => `key-${randomBytes(8).toString("hex")}`;
const withKey = (key: string, extra: Record<string, string> = {}) => ({ "Idempotency-Key": key, ...extra });
const replayed = (res: ApiResponse) => res.headers.get("Idempotent-Replayed");

/** A new organization made ACTIVE through the sandbox's onboarding, and an ACTIVE campaign of it. */
async function activeCampaign(): Promise<{ owner: TestUser; org: Org; campaignId: string }> {
  const { owner, org } = await newOrg(undefined, { notificationEmail: "admin@goodfund-test.org" });
  const onboarding = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
  expect(onboarding.status, onboarding.text).toBe(200);
  const done = await post(`/api/sandbox/accounts/${onboarding.body.processorAccountId}/complete`, undefined, { token: owner.token });
  expect(done.status, done.text).toBeLessThan(300);
  const campaign = await newCampaign(org, owner.token, { status: "ACTIVE" });
  return { owner, org, campaignId: campaign.id };
}

const gift = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  campaignId,
  amount: 2500,
  email: `donor-${randomBytes(5).toString("hex")}@example.org`,
  firstName: "Ada",
  ...extra,
});

async function donationsBy(email: string) {
  const db = await testDb();
  return db.select().from(donations).where(eq(donations.email, email));
}

async function keyRows(key: string) {
  const db = await testDb();
  return db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
}

/** Makes a stored key as old as `age` (a Postgres interval). */
async function ageKey(key: string, age: string) {
  const db = await testDb();
  await db
    .update(idempotencyKeys)
    .set({ createdAt: sql`now() - ${age}::interval` })
    .where(eq(idempotencyKeys.key, key));
}

let owner: TestUser;
let org: Org;
let campaignId: string;

beforeAll(async () => {
  ({ owner, org, campaignId } = await activeCampaign());
}, 60_000);

describe("Idempotency-Key on POST /api/donations (public: keyed by client IP)", () => {
  it("a repeat answers the stored status and body with Idempotent-Replayed and creates nothing new", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift(campaignId);
    const first = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    expect(replayed(first)).toBeNull();

    const again = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-type")).toBe(first.headers.get("content-type"));
    // A replay still gets its own request ID.
    expect(again.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    expect(await donationsBy(body.email)).toHaveLength(1);

    const [row] = await keyRows(key);
    expect(row).toMatchObject({ caller: `ip:${ip}`, method: "POST", path: "/api/donations", state: "done", responseStatus: 201 });
  });

  it("without the header every request runs", async () => {
    const ip = randomIp();
    const body = gift(campaignId);
    expect((await post("/api/donations", body, { ip })).status).toBe(201);
    expect((await post("/api/donations", body, { ip })).status).toBe(201);
    expect(await donationsBy(body.email)).toHaveLength(2);
  });

  it("the same key with another body answers 422 and runs nothing", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift(campaignId);
    expect((await post("/api/donations", body, { ip, headers: withKey(key) })).status).toBe(201);
    const other = await post("/api/donations", { ...body, amount: 5000 }, { ip, headers: withKey(key) });
    expect(other.status, other.text).toBe(422);
    expect(other.body).toEqual({ error: "Idempotency key was used with a different request", status: 422 });
    expect(await donationsBy(body.email)).toHaveLength(1);
  });

  it("while the first request with a key runs, a repeat answers 409; a claim left running 5 minutes is taken over", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift(campaignId);
    // The first request's claim, as the wrapper makes it before running the handler.
    const requestHash = createHash("sha256").update(JSON.stringify(body)).digest("hex");
    const db = await testDb();
    const claim = await claimIdempotencyKey(db, { caller: `ip:${ip}`, key, method: "POST", path: "/api/donations", requestHash });
    expect(claim.owned).toBe(true);

    const during = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(during.status, during.text).toBe(409);
    expect(during.body).toEqual({ error: "A request with this idempotency key is in progress", status: 409 });
    expect(await donationsBy(body.email)).toHaveLength(0);

    // The process holding it died: after 5 minutes the next retry runs.
    await ageKey(key, "6 minutes");
    const retry = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(retry.status, retry.text).toBe(201);
    expect(replayed(retry)).toBeNull();
    expect(await donationsBy(body.email)).toHaveLength(1);
    const replay = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(replayed(replay)).toBe("true");
    expect(replay.text).toBe(retry.text);
  });

  it("a key longer than 255 characters answers 400 on the header; 255 is accepted", async () => {
    const ip = randomIp();
    const body = gift(campaignId);
    const long = await post("/api/donations", body, { ip, headers: withKey("k".repeat(256)) });
    expect(long.status, long.text).toBe(400);
    expect(long.body).toMatchObject({
      error: "Validation failed",
      status: 400,
      details: {
        fieldErrors: { "Idempotency-Key": ["Must be at most 255 characters"] },
        formErrors: [],
        codes: { "Idempotency-Key": [{ code: "too_big", maximum: 255 }] },
      },
    });
    const empty = await post("/api/donations", body, { ip, headers: withKey("") });
    expect(empty.status, empty.text).toBe(400);
    expect(empty.body.details.fieldErrors).toEqual({ "Idempotency-Key": ["Must not be empty"] });
    expect(await donationsBy(body.email)).toHaveLength(0);

    const max = await post("/api/donations", body, { ip, headers: withKey(`${newKey()}-`.padEnd(255, "x")) });
    expect(max.status, max.text).toBe(201);
  });

  it("different callers with the same key are independent", async () => {
    const key = newKey();
    const body = gift(campaignId);
    const a = await post("/api/donations", body, { ip: randomIp(), headers: withKey(key) });
    const b = await post("/api/donations", body, { ip: randomIp(), headers: withKey(key) });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(replayed(b)).toBeNull();
    expect(a.body.id).not.toBe(b.body.id);
    expect(await donationsBy(body.email)).toHaveLength(2);
  });

  it("10 concurrent retries create exactly one donation, and every 2xx answer has the same body", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift(campaignId);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post("/api/donations", body, { ip, headers: withKey(key) })));
    for (const a of answers) expect([201, 409], a.text).toContain(a.status);
    const ok = answers.filter((a) => a.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    expect(ok.filter((a) => replayed(a) === null)).toHaveLength(1);
    expect(await donationsBy(body.email)).toHaveLength(1);
    // Once it is done, every retry is a replay of that one answer.
    const later = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(later.status).toBe(201);
    expect(later.text).toBe(ok[0].text);
  }, 30_000);

  it("a validation error (400) is not kept: the corrected request runs under the same key", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift(campaignId);
    const bad = await post("/api/donations", { ...body, amount: "lots" }, { ip, headers: withKey(key) });
    expect(bad.status).toBe(400);
    expect(await keyRows(key)).toHaveLength(0);
    const good = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(good.status, good.text).toBe(201);
    expect(replayed(good)).toBeNull();
  });

  it("the handler's own 4xx answer is kept and replayed", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift("cmp_does_not_exist");
    const first = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(first.status, first.text).toBe(404);
    const again = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(again.status).toBe(404);
    expect(replayed(again)).toBe("true");
    expect(again.body).toEqual(first.body);
  });
});

describe("Idempotency-Key on authenticated POSTs (keyed by the signed-in user)", () => {
  const campaignTitles = async (title: string) => {
    const db = await testDb();
    return db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.orgId, org.id), eq(campaigns.title, title)));
  };

  it("POST /api/orgs/:id/campaigns: a replay answers the same campaign; another user's same key is independent", async () => {
    const key = newKey();
    const title = `Appeal ${newKey()}`;
    const first = await post(`/api/orgs/${org.id}/campaigns`, { title }, { token: owner.token, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    const again = await post(`/api/orgs/${org.id}/campaigns`, { title }, { token: owner.token, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await campaignTitles(title)).toHaveLength(1);
    expect((await keyRows(key))[0].caller).toBe(`user:${owner.sub}`);

    // The same key on another endpoint is a different request.
    const elsewhere = await post(
      "/api/orgs",
      { name: "Other", slug: `org-${randomBytes(5).toString("hex")}` },
      { token: owner.token, headers: withKey(key) },
    );
    expect(elsewhere.status, elsewhere.text).toBe(422);

    // Another user (an ADMIN of the same organization) with the same key runs their own request.
    const admin = await newUser("Admin");
    expect((await post(`/api/orgs/${org.id}/members`, { email: admin.email, role: "ADMIN" }, { token: owner.token })).status).toBe(201);
    const theirs = await post(`/api/orgs/${org.id}/campaigns`, { title }, { token: admin.token, headers: withKey(key) });
    expect(theirs.status, theirs.text).toBe(201);
    expect(replayed(theirs)).toBeNull();
    expect(await campaignTitles(title)).toHaveLength(2);
  });

  it("a replay is authorized again: a caller who lost access gets 403, not the stored answer", async () => {
    const member = await newUser("Member");
    expect((await post(`/api/orgs/${org.id}/members`, { email: member.email, role: "ADMIN" }, { token: owner.token })).status).toBe(201);
    const key = newKey();
    const title = `Appeal ${newKey()}`;
    const first = await post(`/api/orgs/${org.id}/campaigns`, { title }, { token: member.token, headers: withKey(key) });
    expect(first.status, first.text).toBe(201);
    const db = await testDb();
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, member.email));
    const removed = await del(`/api/orgs/${org.id}/members/${user.id}`, { token: owner.token });
    expect(removed.status, removed.text).toBe(204);
    const again = await post(`/api/orgs/${org.id}/campaigns`, { title }, { token: member.token, headers: withKey(key) });
    expect(again.status).toBe(403);
  });

  it("10 concurrent retries of creating a campaign create one campaign; every 2xx answer has the same body", async () => {
    const key = newKey();
    const title = `Appeal ${newKey()}`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(`/api/orgs/${org.id}/campaigns`, { title }, { token: owner.token, headers: withKey(key) })),
    );
    for (const a of answers) expect([201, 409], a.text).toContain(a.status);
    const ok = answers.filter((a) => a.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((a) => a.text)).size).toBe(1);
    expect(await campaignTitles(title)).toHaveLength(1);
  }, 30_000);

  it("a webhook endpoint's signing secret is stored encrypted, and the replay shows it again", async () => {
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    resetEnv();
    try {
      const key = newKey();
      const body = { url: "http://127.0.0.1:9/hooks/idempotency" };
      const first = await post(`/api/orgs/${org.id}/webhook-endpoints`, body, { token: owner.token, headers: withKey(key) });
      expect(first.status, first.text).toBe(201);
      const secret = first.body.secret as string;
      expect(secret).toMatch(/^whsec_/);

      const [row] = await keyRows(key);
      expect(row.responseBody).toMatch(/^enc:v1:/);
      expect(row.responseBody).not.toContain(secret);
      expect(row.responseBody).not.toContain(secret.slice("whsec_".length));
      expect(JSON.stringify(row)).not.toContain(first.body.id);

      const again = await post(`/api/orgs/${org.id}/webhook-endpoints`, body, { token: owner.token, headers: withKey(key) });
      expect(replayed(again)).toBe("true");
      expect(again.body.secret).toBe(secret);
      const list = await get(`/api/orgs/${org.id}/webhook-endpoints`, { token: owner.token });
      expect(list.body.data.filter((e: { url: string }) => e.url === body.url)).toHaveLength(1);
    } finally {
      delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
      resetEnv();
    }
  });
});

describe("keys past 24 hours", () => {
  it("are swept by the worker; younger ones stay", async () => {
    const ip = randomIp();
    const [oldKey, newer] = [newKey(), newKey()];
    for (const key of [oldKey, newer]) {
      expect((await post("/api/donations", gift(campaignId), { ip, headers: withKey(key) })).status).toBe(201);
    }
    const db = await testDb();
    await ageKey(oldKey, "25 hours");
    await runWorkerOnce(db, { orgIds: [org.id] });
    expect(await keyRows(oldKey)).toHaveLength(0);
    expect(await keyRows(newer)).toHaveLength(1);
  });

  it("a key past 24 hours that the worker has not swept yet runs again", async () => {
    const ip = randomIp();
    const key = newKey();
    const body = gift(campaignId);
    expect((await post("/api/donations", body, { ip, headers: withKey(key) })).status).toBe(201);
    await ageKey(key, "25 hours");
    const later = await post("/api/donations", body, { ip, headers: withKey(key) });
    expect(later.status, later.text).toBe(201);
    expect(replayed(later)).toBeNull();
    expect(await donationsBy(body.email)).toHaveLength(2);
  });
});

describe("a failing handler leaves no stored answer (Stripe mode, the processor down)", () => {
  // A stand-in for Stripe's API: down (503, not to be retried) until `up`, then connects accounts.
  let up = false;
  useFakeStripe(
    (rec) => {
      if (!up)
        return { ...stripeError(503, { type: "api_error", message: "Down for a moment" }), headers: { "Stripe-Should-Retry": "false" } };
      if (rec.path === "/v1/accounts") return ok(newAccount(rec.form));
      if (rec.path === "/v1/account_links") return ok(newAccountLink(rec.form));
      return unrecognized(rec);
    },
    { env: { PAYMENTS_MODE: "stripe" } },
  );

  it("POST /api/orgs/:id/processor/onboarding: a 502 frees the key, the retry runs, the next one replays", async () => {
    const { owner: me, org: mine } = await newOrg(undefined, { notificationEmail: "admin@goodfund-test.org" });
    const key = newKey();
    const path = `/api/orgs/${mine.id}/processor/onboarding`;
    const down = await post(path, undefined, { token: me.token, headers: withKey(key) });
    expect(down.status, down.text).toBe(502);
    expect(await keyRows(key)).toHaveLength(0);

    up = true;
    const retry = await post(path, undefined, { token: me.token, headers: withKey(key) });
    expect(retry.status, retry.text).toBe(200);
    expect(replayed(retry)).toBeNull();
    const db = await testDb();
    const [connected] = await db.select().from(organizations).where(eq(organizations.id, mine.id));
    expect(connected.processorAccountId).toBe(retry.body.processorAccountId);

    const again = await post(path, undefined, { token: me.token, headers: withKey(key) });
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(retry.text);
  }, 30_000);
});

describe("Idempotency-Key on POST /api/processor/webhooks (no rate limit: signed callers only)", () => {
  const webhook = (rawBody: string, headers: Record<string, string>, ip = randomIp()) =>
    call("POST", "/api/processor/webhooks", { rawBody, headers, ip });

  it("a bad signature with a fresh key answers 400 and keeps no row, however many come", async () => {
    const keys = Array.from({ length: 20 }, newKey);
    for (const key of keys) {
      const forged = signedDelivery(fixture("customer.created"), { secret: "whsec_someone_else_0123456789" });
      const res = await webhook(forged.rawBody, { ...forged.headers, ...withKey(key) });
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual({ error: "Invalid signature", status: 400 });
    }
    // Nor without any signature at all.
    const unsigned = await webhook(JSON.stringify({ id: "evt_x" }), { "content-type": "application/json", ...withKey(keys[0]) });
    expect(unsigned.status).toBe(400);
    const db = await testDb();
    const rows = await db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(sql`${idempotencyKeys.key} in ${keys}`);
    expect(rows).toEqual([]);
  });

  it("a signed event with a key is kept and replayed like any POST", async () => {
    const key = newKey();
    const ip = randomIp();
    const delivery = signedDelivery(fixture("customer.created"));
    const first = await webhook(delivery.rawBody, { ...delivery.headers, ...withKey(key) }, ip);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, ignored: true });
    expect(await keyRows(key)).toHaveLength(1);
    const again = await webhook(delivery.rawBody, { ...delivery.headers, ...withKey(key) }, ip);
    expect(again.status).toBe(200);
    expect(replayed(again)).toBe("true");
    expect(again.text).toBe(first.text);
  });
});
