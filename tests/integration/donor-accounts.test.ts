/**
 * Donor accounts: POST /api/public/orgs/:orgSlug/donor-sessions (a
 * single-use sign-in link, 15 minutes, no enumeration, rate limited), the sign-in page's
 * confirm route (which uses the link and sets the organization's donor cookie), the donor
 * cookie's checks in the route wrapper (`auth: "donor"`), and the donor's own lists:
 * GET /api/donor/orgs/:orgSlug/donations and …/recurring-plans, and DELETE …/session.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as confirmSignIn } from "@/app/o/[orgSlug]/account/sign-in/confirm/route";
import { donorSessions, donorSignInLinks, donors, outbox } from "@/db/schema";
import { donorCookieName, purgeExpiredDonorSessions, signDonorSession } from "@/lib/auth/donor-session";
import { getEnv } from "@/lib/env";
import { getPolicy } from "@/lib/ratelimit";
import { del, get, post, randomIp, type ApiResponse } from "../helpers/api";
import { testDb } from "../helpers/db";
import { handleSignInRequests, queuedSignInEmails } from "../helpers/email";
import { activeCampaign, activeOrg, paidDonation, randomEmail, type Campaign, type Org } from "../helpers/records";
import { startInsideWindow } from "../helpers/rate-window";

const SAME_ORIGIN = { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" };
const CROSS_SITE = { "sec-fetch-site": "cross-site", origin: "https://evil.example" };

type Signed = { cookie: string; name: string; value: string };

let orgA: Org;
let orgB: Org;
let campaignA: Campaign;
let campaignB: Campaign;
/** Maya gives to A (once, then monthly) and to B; Noor gives to A. */
const maya = randomEmail("maya");
const noor = randomEmail("noor");
let mayaGiftA: Record<string, any>;
let mayaMonthlyA: Record<string, any>;
let mayaGiftB: Record<string, any>;
let noorGiftA: Record<string, any>;
let noorMonthlyA: Record<string, any>;

beforeAll(async () => {
  const a = await activeOrg();
  const b = await activeOrg();
  orgA = a.org;
  orgB = b.org;
  campaignA = await activeCampaign(orgA, a.owner, { title: "Winter meals" });
  campaignB = await activeCampaign(orgB, b.owner, { title: "Library books" });
  mayaGiftA = await paidDonation(campaignA.id, { email: maya, amount: 2500, firstName: "Maya" });
  mayaMonthlyA = await paidDonation(campaignA.id, { email: maya, amount: 1000, recurringInterval: "MONTH", firstName: "Maya" });
  mayaGiftB = await paidDonation(campaignB.id, { email: maya, amount: 4000, firstName: "Maya" });
  noorGiftA = await paidDonation(campaignA.id, { email: noor, amount: 7000, firstName: "Noor" });
  noorMonthlyA = await paidDonation(campaignA.id, { email: noor, amount: 3000, recurringInterval: "MONTH", firstName: "Noor" });
});

const requestLink = (orgSlug: string, email: string, ip: string = randomIp()) =>
  post(`/api/public/orgs/${orgSlug}/donor-sessions`, { email }, { ip });

async function donorId(org: Org, email: string): Promise<string> {
  const db = await testDb();
  const [d] = await db
    .select({ id: donors.id })
    .from(donors)
    .where(and(eq(donors.orgId, org.id), eq(donors.email, email)));
  return d.id;
}

/** The sign-in emails queued to an address (newest last), with their links. */
async function signInEmails(to: string): Promise<{ url: string; orgName: string }[]> {
  return (await queuedSignInEmails(to)).map((m) => m.props);
}

async function linkCount(org: Org): Promise<number> {
  const db = await testDb();
  const rows = await db.select({ id: donorSignInLinks.id }).from(donorSignInLinks).where(eq(donorSignInLinks.orgId, org.id));
  return rows.length;
}

/** A fresh link for a donor: asks for it through the API, reads its token from the queued email. */
async function freshToken(org: Org, email: string): Promise<string> {
  const res = await requestLink(org.slug, email);
  expect(res.status, res.text).toBe(202);
  const emails = await signInEmails(email);
  const url = new URL(emails.at(-1)!.url);
  expect(url.pathname).toBe(`/o/${org.slug}/account/sign-in`);
  return url.searchParams.get("token")!;
}

/** The sign-in page's "Continue to your account" form post. */
async function confirm(orgSlug: string, token: string, headers: Record<string, string> = SAME_ORIGIN): Promise<Response> {
  const req = new NextRequest(new URL(`/o/${orgSlug}/account/sign-in/confirm`, "http://localhost:3000"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams({ token }).toString(),
  });
  return confirmSignIn(req, { params: Promise.resolve({ orgSlug }) });
}

function cookieOf(res: Response): Signed {
  const header = res.headers.get("set-cookie");
  expect(header).toBeTruthy();
  const [pair] = header!.split(";");
  const eqAt = pair.indexOf("=");
  return { cookie: pair, name: pair.slice(0, eqAt), value: pair.slice(eqAt + 1) };
}

const signedIn = new Map<string, Signed>();

/** A new session's cookie for a donor, through the real link and confirm route. */
async function freshSignIn(org: Org, email: string): Promise<Signed> {
  const res = await confirm(org.slug, await freshToken(org, email));
  expect(res.status).toBe(303);
  return cookieOf(res);
}

/**
 * A donor's cookie, made once per organization and donor (links are limited to 5 per address per
 * 15 minutes); tests that sign out use freshSignIn.
 */
async function signIn(org: Org, email: string): Promise<Signed> {
  const key = `${org.id} ${email}`;
  if (!signedIn.has(key)) signedIn.set(key, await freshSignIn(org, email));
  return signedIn.get(key)!;
}

/** A new donor of organization A (a paid gift), for tests that use up sign-in links. */
async function newDonorOfA(): Promise<string> {
  const email = randomEmail("fresh");
  await paidDonation(campaignA.id, { email });
  return email;
}

const donorGet = (path: string, cookie?: string): Promise<ApiResponse> => get(path, { headers: cookie ? { cookie } : {} });

describe("POST /api/public/orgs/:orgSlug/donor-sessions", () => {
  it("POST /api/public/orgs/:orgSlug/donor-sessions answers the same for a donor, a stranger and another organization's donor; only the donor gets a link", async () => {
    const stranger = randomEmail("stranger");
    const onlyB = randomEmail("only-b");
    const b = await activeOrg();
    const campaign = await activeCampaign(b.org, b.owner);
    await paidDonation(campaign.id, { email: onlyB });
    const before = await linkCount(orgA);

    const answers = [await requestLink(orgA.slug, noor), await requestLink(orgA.slug, stranger), await requestLink(orgA.slug, onlyB)];
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ sent: true });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    for (const email of [noor, stranger, onlyB]) await handleSignInRequests(email);
    expect(await linkCount(orgA)).toBe(before + 1);
    expect(await signInEmails(stranger)).toEqual([]);
    expect(await signInEmails(onlyB)).toEqual([]);
    const [email] = (await signInEmails(noor)).slice(-1);
    expect(email.orgName).toBe(orgA.name);
    expect(email.url).toMatch(new RegExp(`^${getEnv().appUrl}/o/${orgA.slug}/account/sign-in\\?token=[\\w-]{43}&lang=en$`));
  });

  it("POST /api/public/orgs/:orgSlug/donor-sessions answers before any lookup: one queued request, the same for a donor and a stranger; the worker makes the link", async () => {
    const donor = await newDonorOfA();
    const stranger = randomEmail("stranger");
    const db = await testDb();
    const [{ last }] = await db.select({ last: sql<number>`coalesce(max(${outbox.id}), 0)` }).from(outbox);

    const answers = [await requestLink(orgA.slug, donor), await requestLink(orgA.slug, stranger)];
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ sent: true });
    }
    // What each request did: queue one row (whoever handles it, and whenever, later). Rows of
    // other organizations (other files sharing the database) are not ours.
    const queued = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "donor-sign-in"), eq(outbox.orgId, orgA.id), sql`${outbox.id} > ${last}`))
      .orderBy(outbox.id);
    expect(queued).toHaveLength(2);
    const linkIds = queued.map((r) => (r.payload as { linkId: string }).linkId);
    for (const id of linkIds) expect(id).toMatch(/^dsl_/);

    // The worker does the lookup: the donor's link is the one the queued request named, and
    // its email goes out; the stranger gets nothing.
    expect(await handleSignInRequests(donor)).toBeLessThanOrEqual(1);
    expect(await handleSignInRequests(stranger)).toBeLessThanOrEqual(1);
    const made = await db.select().from(donorSignInLinks).where(inArray(donorSignInLinks.id, linkIds));
    expect(made.map((l) => l.id)).toEqual([linkIds[0]]);
    expect(made[0].donorId).toBe(await donorId(orgA, donor));
    expect(made[0].createdAt.getTime()).toBeGreaterThanOrEqual(queued[0].createdAt.getTime());
    expect(await signInEmails(donor)).toHaveLength(1);
    expect(await signInEmails(stranger)).toEqual([]);
    // Handled requests look alike and keep no address.
    const done = await db
      .select({ status: outbox.status, payload: outbox.payload, lastError: outbox.lastError })
      .from(outbox)
      .where(
        inArray(
          outbox.id,
          queued.map((r) => r.id),
        ),
      );
    expect(done).toHaveLength(2);
    for (const row of done) {
      expect(row.status).toBe("SENT");
      expect(row.lastError).toBeNull();
      expect(row.payload).not.toHaveProperty("email");
      expect(Object.keys(row.payload).sort()).toEqual(["linkId", "locale", "orgId", "purged"]);
    }
  });

  it("POST /api/public/orgs/:orgSlug/donor-sessions finds the donor whatever the case of the address, and answers the same for an unknown organization", async () => {
    const before = (await signInEmails(noor)).length;
    expect((await requestLink(orgA.slug, `  ${noor.toUpperCase()} `)).status).toBe(202);
    expect((await signInEmails(noor)).length).toBe(before + 1);
    const unknown = await requestLink("no-such-org-anywhere", noor);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual({ sent: true });
  });

  it("POST /api/public/orgs/:orgSlug/donor-sessions stores only the token's SHA-256, valid 15 minutes", async () => {
    const token = await freshToken(orgA, noor);
    const db = await testDb();
    const [row] = await db
      .select({
        tokenHash: donorSignInLinks.tokenHash,
        minutes: sql<number>`extract(epoch from (${donorSignInLinks.expiresAt} - ${donorSignInLinks.createdAt})) / 60`,
      })
      .from(donorSignInLinks)
      .where(
        eq(donorSignInLinks.tokenHash, (await import("@/lib/services/donor-accounts/request-sign-in-link")).donorSignInTokenHash(token)),
      );
    expect(row.tokenHash).not.toContain(token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(Math.round(Number(row.minutes))).toBe(15);
  });

  it("POST /api/public/orgs/:orgSlug/donor-sessions refuses a bad address with 400, like every validation error", async () => {
    const res = await requestLink(orgA.slug, "not an address");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Validation failed");
    expect(res.body.details.fieldErrors.email).toBeDefined();
  });

  it("POST /api/public/orgs/:orgSlug/donor-sessions is limited per address (5 per 15 minutes), known or not, from any IP", async () => {
    for (const email of [noor, randomEmail("nobody")]) {
      const b = await activeOrg();
      const campaign = await activeCampaign(b.org, b.owner);
      if (email === noor) await paidDonation(campaign.id, { email });
      await startInsideWindow(10_000, getPolicy("donor-signin-address").windowMs);
      for (let i = 0; i < 5; i++) expect((await requestLink(b.org.slug, email)).status).toBe(202);
      const refused = await requestLink(b.org.slug, email);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: "Too many requests", status: 429 });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      await handleSignInRequests(email);
      expect(await linkCount(b.org as Org)).toBe(email === noor ? 5 : 0);
    }
  });

  it("POST /api/public/orgs/:orgSlug/donor-sessions is limited per client IP (10 per 15 minutes), whatever the addresses", async () => {
    const ip = randomIp();
    await startInsideWindow(10_000, getPolicy("donor-signin-ip").windowMs);
    for (let i = 0; i < 10; i++) expect((await requestLink(orgB.slug, randomEmail("spray"), ip)).status).toBe(202);
    const refused = await requestLink(orgB.slug, randomEmail("spray"), ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeTruthy();
    expect((await requestLink(orgB.slug, randomEmail("spray"))).status).toBe(202);
  });
});

describe("the sign-in link (POST /o/:orgSlug/account/sign-in/confirm)", () => {
  it("signs the donor in once: an HttpOnly, SameSite=Lax cookie of that organization for 7 days, then the account page (303)", async () => {
    const token = await freshToken(orgA, await newDonorOfA());
    const first = await confirm(orgA.slug, token);
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("../../account");
    const setCookie = first.headers.get("set-cookie")!;
    expect(setCookie).toMatch(new RegExp(`^gf_donor_${orgA.id}=`));
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain(`Max-Age=${7 * 24 * 60 * 60}`);
    // Tests run on http://localhost:3000: no Secure flag (it would be set on https).
    expect(setCookie).not.toContain("Secure");

    const again = await confirm(orgA.slug, token);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("../sign-in?link=expired");
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("a link used by two clicks at once signs in only one of them", async () => {
    const token = await freshToken(orgA, await newDonorOfA());
    const results = await Promise.all([confirm(orgA.slug, token), confirm(orgA.slug, token), confirm(orgA.slug, token)]);
    expect(results.filter((r) => r.headers.get("set-cookie") !== null)).toHaveLength(1);
  });

  it("an expired link (older than 15 minutes) does not sign in", async () => {
    const token = await freshToken(orgA, await newDonorOfA());
    const db = await testDb();
    const { donorSignInTokenHash } = await import("@/lib/services/donor-accounts/request-sign-in-link");
    await db
      .update(donorSignInLinks)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(donorSignInLinks.tokenHash, donorSignInTokenHash(token)));
    const res = await confirm(orgA.slug, token);
    expect(res.headers.get("location")).toBe("../sign-in?link=expired");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  it("an unknown token, or another organization's link, does not sign in (and the link stays usable where it belongs)", async () => {
    expect((await confirm(orgA.slug, "not-a-real-token")).headers.get("set-cookie")).toBeNull();
    const tokenOfB = await freshToken(orgB, maya);
    expect((await confirm(orgA.slug, tokenOfB)).headers.get("set-cookie")).toBeNull();
    expect((await confirm(orgB.slug, tokenOfB)).headers.get("set-cookie")).toMatch(new RegExp(`^gf_donor_${orgB.id}=`));
  });

  it("refuses a post from another site (403) and leaves the link unused", async () => {
    const token = await freshToken(orgA, await newDonorOfA());
    const res = await confirm(orgA.slug, token, CROSS_SITE);
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await confirm(orgA.slug, token)).headers.get("set-cookie")).not.toBeNull();
  });

  it("an erased donor's link does not sign in", async () => {
    const email = randomEmail("erased");
    await paidDonation(campaignB.id, { email });
    const token = await freshToken(orgB, email);
    const db = await testDb();
    await db
      .update(donors)
      .set({ erasedAt: new Date() })
      .where(eq(donors.id, await donorId(orgB, email)));
    expect((await confirm(orgB.slug, token)).headers.get("set-cookie")).toBeNull();
    // And asking again sends nothing.
    const before = (await signInEmails(email)).length;
    expect((await requestLink(orgB.slug, email)).status).toBe(202);
    expect((await signInEmails(email)).length).toBe(before);
  });
});

describe("the worker's clean-up of donor sign-in links", () => {
  it("deletes used and expired donor links and keeps the ones still usable", async () => {
    const { donorSignInTokenHash } = await import("@/lib/services/donor-accounts/request-sign-in-link");
    const { purgeExpiredSignInLinks } = await import("@/lib/services/sign-in/sign-in-links");
    const db = await testDb();
    const email = randomEmail("purged");
    await paidDonation(campaignB.id, { email });
    const [used, expired, fresh] = [await freshToken(orgB, email), await freshToken(orgB, email), await freshToken(orgB, email)];
    expect((await confirm(orgB.slug, used)).headers.get("set-cookie")).not.toBeNull();
    await db
      .update(donorSignInLinks)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(donorSignInLinks.tokenHash, donorSignInTokenHash(expired)));
    await purgeExpiredSignInLinks(db);
    const left = await db
      .select({ tokenHash: donorSignInLinks.tokenHash })
      .from(donorSignInLinks)
      .where(eq(donorSignInLinks.orgId, orgB.id));
    const hashes = left.map((r) => r.tokenHash);
    expect(hashes).toContain(donorSignInTokenHash(fresh));
    expect(hashes).not.toContain(donorSignInTokenHash(used));
    expect(hashes).not.toContain(donorSignInTokenHash(expired));
    expect((await confirm(orgB.slug, fresh)).headers.get("set-cookie")).not.toBeNull();
  });
});

describe("the donor cookie on the donor API", () => {
  it("GET /api/donor/orgs/:orgSlug/donations without a cookie answers 401 in the contract's shape", async () => {
    const res = await donorGet(`/api/donor/orgs/${orgA.slug}/donations`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const unknownOrg = await donorGet(`/api/donor/orgs/no-such-org-anywhere/donations`);
    expect(unknownOrg.status).toBe(401);
  });

  it("a staff session token does not authenticate a donor route", async () => {
    const { owner } = await activeOrg();
    const res = await get(`/api/donor/orgs/${orgA.slug}/donations`, { token: owner.token });
    expect(res.status).toBe(401);
  });

  it("a cookie of organization A never authenticates organization B (under either organization's cookie name)", async () => {
    const a = await signIn(orgA, maya);
    expect((await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, a.cookie)).status).toBe(200);
    expect((await donorGet(`/api/donor/orgs/${orgB.slug}/donations`, a.cookie)).status).toBe(401);
    const renamed = `${donorCookieName(orgB.id)}=${a.value}`;
    expect((await donorGet(`/api/donor/orgs/${orgB.slug}/donations`, renamed)).status).toBe(401);
    // Even signed for B's donor ID, a cookie naming organization A is refused by B.
    const sessionId = JSON.parse(Buffer.from(a.value.split(".")[0], "base64url").toString()).s;
    const forged = signDonorSession({
      sessionId,
      donorId: await donorId(orgB, maya),
      orgId: orgA.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await donorGet(`/api/donor/orgs/${orgB.slug}/donations`, `${donorCookieName(orgB.id)}=${forged}`)).status).toBe(401);
  });

  it("a tampered, re-signed or expired cookie answers 401", async () => {
    const a = await signIn(orgA, maya);
    const [payload, signature] = a.value.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, d: await donorId(orgA, noor) })).toString("base64url");
    const flipped = signature.slice(0, -2) + (signature.endsWith("AA") ? "BB" : "AA");
    for (const value of [`${otherPayload}.${signature}`, `${payload}.${flipped}`, payload, `${payload}.`, "garbage"]) {
      const res = await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, `${a.name}=${value}`);
      expect(res.status, value).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
    const expired = signDonorSession({ sessionId: claims.s, donorId: claims.d, orgId: orgA.id, expiresAt: new Date(Date.now() - 1000) });
    expect((await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, `${a.name}=${expired}`)).status).toBe(401);
  });

  it("an erased donor is signed out", async () => {
    const email = randomEmail("later-erased");
    await paidDonation(campaignB.id, { email });
    const signed = await signIn(orgB, email);
    expect((await donorGet(`/api/donor/orgs/${orgB.slug}/donations`, signed.cookie)).status).toBe(200);
    const db = await testDb();
    await db
      .update(donors)
      .set({ erasedAt: new Date() })
      .where(eq(donors.id, await donorId(orgB, email)));
    expect((await donorGet(`/api/donor/orgs/${orgB.slug}/donations`, signed.cookie)).status).toBe(401);
  });

  it("DELETE /api/donor/orgs/:orgSlug/session signs out (204, the cookie cleared); from another site it is 403", async () => {
    const a = await freshSignIn(orgA, await newDonorOfA());
    const crossSite = await del(`/api/donor/orgs/${orgA.slug}/session`, { headers: { cookie: a.cookie, ...CROSS_SITE } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toEqual({ error: "Forbidden", status: 403 });
    expect(crossSite.headers.get("set-cookie")).toBeNull();
    const noHeaders = await del(`/api/donor/orgs/${orgA.slug}/session`, { headers: { cookie: a.cookie } });
    expect(noHeaders.status).toBe(403);

    const res = await del(`/api/donor/orgs/${orgA.slug}/session`, { headers: { cookie: a.cookie, ...SAME_ORIGIN } });
    expect(res.status).toBe(204);
    const cleared = res.headers.get("set-cookie")!;
    expect(cleared).toMatch(new RegExp(`^gf_donor_${orgA.id}=;`));
    expect(cleared).toContain("Max-Age=0");
    expect((await del(`/api/donor/orgs/${orgA.slug}/session`)).status).toBe(401);
  });

  it("DELETE /api/donor/orgs/:orgSlug/session ends the session on the server: a copy of the cookie no longer signs in, the donor's other sessions do", async () => {
    const email = await newDonorOfA();
    const laptop = await freshSignIn(orgA, email);
    const phone = await freshSignIn(orgA, email);
    const copied = laptop.cookie;
    for (const s of [laptop, phone]) expect((await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, s.cookie)).status).toBe(200);

    const out = await del(`/api/donor/orgs/${orgA.slug}/session`, { headers: { cookie: laptop.cookie, ...SAME_ORIGIN } });
    expect(out.status).toBe(204);
    // The browser dropped its cookie; someone who copied it still has the value, and it no longer works.
    const stolen = await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, copied);
    expect(stolen.status).toBe(401);
    expect(stolen.body).toEqual({ error: "Unauthorized", status: 401 });
    expect((await del(`/api/donor/orgs/${orgA.slug}/session`, { headers: { cookie: copied, ...SAME_ORIGIN } })).status).toBe(401);
    // Signing out on one device leaves the other signed in.
    expect((await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, phone.cookie)).status).toBe(200);

    // The database keeps only hashes of session IDs, and the worker's clean-up deletes expired sessions.
    const db = await testDb();
    const sessions = await db
      .select()
      .from(donorSessions)
      .where(eq(donorSessions.donorId, await donorId(orgA, email)));
    expect(sessions).toHaveLength(1);
    const phoneId = JSON.parse(Buffer.from(phone.value.split(".")[0], "base64url").toString()).s;
    expect(sessions[0].idHash).toMatch(/^[0-9a-f]{64}$/);
    expect(sessions[0].idHash).not.toContain(phoneId);
    await db
      .update(donorSessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(donorSessions.idHash, sessions[0].idHash));
    expect((await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, phone.cookie)).status).toBe(401);
    await purgeExpiredDonorSessions(db);
    expect(await db.select().from(donorSessions).where(eq(donorSessions.idHash, sessions[0].idHash))).toEqual([]);
  });
});

describe("the donor's own lists", () => {
  it("GET /api/donor/orgs/:orgSlug/donations lists only the donor's gifts to that organization, newest first, with receipt links", async () => {
    const a = await signIn(orgA, maya);
    const res = await donorGet(`/api/donor/orgs/${orgA.slug}/donations`, a.cookie);
    expect(res.status, res.text).toBe(200);
    const ids = res.body.data.map((d: { id: string }) => d.id);
    expect(ids).toEqual([mayaMonthlyA.id, mayaGiftA.id]);
    expect(ids).not.toContain(noorGiftA.id);
    expect(ids).not.toContain(mayaGiftB.id);
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 2, hasMore: false });
    const gift = res.body.data[1];
    expect(gift).toMatchObject({
      amount: 2500,
      currency: "usd",
      status: "SUCCEEDED",
      campaignTitle: "Winter meals",
      recurringInterval: null,
    });
    expect(gift.receiptUrl).toBe(`${getEnv().appUrl}/o/${orgA.slug}/donate/${campaignA.slug}/thank-you?donation=${mayaGiftA.id}`);
    expect(res.body.data[0]).toMatchObject({ recurringInterval: "MONTH", recurringPlanId: mayaMonthlyA.recurringPlanId });
    // Nothing of the donor's contact details or anyone else's.
    expect(res.text).not.toContain(noor);

    const page2 = await donorGet(`/api/donor/orgs/${orgA.slug}/donations?limit=1&page=2`, a.cookie);
    expect(page2.body.data.map((d: { id: string }) => d.id)).toEqual([mayaGiftA.id]);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 1, total: 2, hasMore: false });
  });

  it("GET /api/donor/orgs/:orgSlug/recurring-plans lists only the donor's own plans", async () => {
    const a = await signIn(orgA, maya);
    const res = await donorGet(`/api/donor/orgs/${orgA.slug}/recurring-plans`, a.cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id)).toEqual([mayaMonthlyA.recurringPlanId]);
    expect(res.body.data[0]).toMatchObject({ amount: 1000, interval: "MONTH", status: "ACTIVE", donationCount: 1, totalCents: 1000 });
    expect(res.text).not.toContain(noorMonthlyA.recurringPlanId);

    const n = await signIn(orgA, noor);
    const theirs = await donorGet(`/api/donor/orgs/${orgA.slug}/recurring-plans`, n.cookie);
    expect(theirs.body.data.map((p: { id: string }) => p.id)).toEqual([noorMonthlyA.recurringPlanId]);
    const noPlans = await signIn(orgB, maya);
    expect((await donorGet(`/api/donor/orgs/${orgB.slug}/recurring-plans`, noPlans.cookie)).body.data).toEqual([]);
  });

  it("the receipt email links to the donor's account page", async () => {
    const db = await testDb();
    const [row] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(eq(outbox.dedupeKey, `email:receipt:${mayaGiftA.id}`));
    expect((row.payload as { props: { accountUrl: string } }).props.accountUrl).toBe(`${getEnv().appUrl}/o/${orgA.slug}/account`);
  });
});
