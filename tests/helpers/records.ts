/**
 * Helpers of the operations tests (donations list, donors, recurring plans, exports): ACTIVE
 * organizations and SUCCEEDED donations made through the real API and the sandbox, and rows
 * inserted directly when a test needs exact timestamps or many of them.
 */
import { startDonorSession } from "@/lib/auth/donor-session";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { donations, donors } from "@/db/schema";
import { newId } from "@/lib/ids";
import { addMember, get, newCampaign, newOrg, newUser, post, type TestUser } from "./api";
import { testDb } from "./db";

export type Org = { id: string; slug: string } & Record<string, any>;
export type Campaign = { id: string; slug: string; title: string } & Record<string, any>;

export const CARD_OK = "4242 4242 4242 4242";
export const CARD_DECLINED = "4000 0000 0000 0002";

/** A new organization made ACTIVE through onboarding and the sandbox's account completion. */
export async function activeOrg(extra: Record<string, unknown> = {}): Promise<{ owner: TestUser; org: Org }> {
  const { owner, org } = await newOrg(undefined, { notificationEmail: "admin@goodfund-test.org", ...extra });
  const onboarding = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
  expect(onboarding.status, onboarding.text).toBe(200);
  const done = await post(`/api/sandbox/accounts/${onboarding.body.processorAccountId}/complete`, undefined, { token: owner.token });
  expect(done.status, done.text).toBeLessThan(300);
  const after = await get(`/api/orgs/${org.id}`, { token: owner.token });
  expect(after.body.status).toBe("ACTIVE");
  return { owner, org: after.body };
}

export const activeCampaign = (org: Org, owner: TestUser, body: Record<string, unknown> = {}) =>
  newCampaign(org, owner.token, { title: "Spring appeal", status: "ACTIVE", ...body }) as Promise<Campaign>;

/** An ACTIVE organization with one ACTIVE campaign: where most donation tests start. */
export async function activeOrgAndCampaign(): Promise<{ owner: TestUser; org: Org; campaign: Campaign }> {
  const { owner, org } = await activeOrg();
  return { owner, org, campaign: await activeCampaign(org, owner) };
}

/** A signed-in user added to the organization with `role`. */
export async function memberOf(org: Org, owner: TestUser, role: "MEMBER" | "ADMIN" | "OWNER" = "MEMBER"): Promise<TestUser> {
  const user = await newUser(`${role} user`);
  await addMember(org.id, owner.token, user, role);
  return user;
}

/** A signed-in user who belongs to another organization only. */
export async function outsider(): Promise<TestUser> {
  const { owner } = await newOrg();
  return owner;
}

export const randomEmail = (prefix = "donor") => `${prefix}-${Math.random().toString(36).slice(2, 10)}@example.org`;

/** The body of a $25 gift by Ada Lovelace (a fresh address each time) to the campaign, with `extra` on top. */
export const giftBody = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  campaignId,
  amount: 2500,
  email: randomEmail(),
  firstName: "Ada",
  lastName: "Lovelace",
  ...extra,
});

export async function startDonation(campaignId: string, extra: Record<string, unknown> = {}) {
  const res = await post("/api/donations", giftBody(campaignId, extra));
  expect(res.status, res.text).toBe(201);
  return res.body as Record<string, any>;
}

export async function pay(clientSecret: string, card = CARD_OK) {
  const res = await post("/api/sandbox/payments/confirm", { clientSecret, cardNumber: card });
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, any>;
}

/** A donation that went through the sandbox card form, SUCCEEDED (or FAILED with the declined card). */
export async function paidDonation(campaignId: string, extra: Record<string, unknown> = {}, card = CARD_OK) {
  const started = await startDonation(campaignId, extra);
  const paid = await pay(started.clientSecret, card);
  expect(paid.status).toBe(card === CARD_OK ? "SUCCEEDED" : "FAILED");
  return paid;
}

/** A donor row, straight into the database. */
export async function insertDonor(orgId: string, fields: { email?: string; firstName?: string | null; lastName?: string | null } = {}) {
  const db = await testDb();
  const [d] = await db
    .insert(donors)
    .values({
      id: newId("dnr"),
      orgId,
      email: fields.email ?? randomEmail(),
      firstName: fields.firstName ?? null,
      lastName: fields.lastName ?? null,
    })
    .returning();
  // Always given here: only an offline gift makes a donor without email.
  return { ...d, email: d.email! };
}

export type DirectDonation = {
  orgId: string;
  campaignId: string;
  donorId: string;
  /** A Postgres timestamptz literal, microseconds included (`2021-06-01T12:00:00.000001Z`); now() when absent. */
  createdAt?: string;
  id?: string;
} & Partial<Omit<typeof donations.$inferInsert, "createdAt" | "orgId" | "campaignId" | "donorId" | "id">>;

/**
 * Donations straight into the database (no aggregates: PENDING unless `status` says otherwise,
 * and only for tests that do not check totals), with exact creation times.
 */
export async function insertDonations(rows: DirectDonation[]): Promise<string[]> {
  const db = await testDb();
  if (rows.length === 0) return [];
  const values = rows.map(({ createdAt, id, ...r }) => ({
    id: id ?? newId("don"),
    amount: 2500,
    email: randomEmail("direct"),
    ...r,
    ...(createdAt ? { createdAt: sql`${createdAt}::timestamptz` as unknown as Date } : {}),
  }));
  const inserted = await db.insert(donations).values(values).returning({ id: donations.id });
  return inserted.map((r) => r.id);
}

/** Rows of a raw query, whichever driver answers (postgres-js: an array; PGlite: `{ rows }`). */
export async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const db = await testDb();
  const r = await db.execute(query);
  return (Array.isArray(r) ? r : (r as unknown as { rows: T[] }).rows) as T[];
}

/** Expects `actual` to contain the `expected` items in that relative order (other items may sit between). */
export function expectInOrder(actual: string[], expected: string[]) {
  let at = -1;
  for (const item of expected) {
    const next = actual.indexOf(item, at + 1);
    expect(next, `${item} after position ${at} in ${JSON.stringify(actual)}`).toBeGreaterThan(at);
    at = next;
  }
}

/** A donor's cookie (`name=value`) for a fresh session on `orgId`, as the sign-in link's confirm step makes it. */
export async function donorSessionCookieFor(donorId: string, orgId: string): Promise<string> {
  return (await startDonorSession(await testDb(), donorId, orgId)).split(";")[0];
}
