/**
 * Staff account security (contract section 16): TOTP enrolment and challenges (codes computed
 * here from the secret, RFC 6238), replays refused, the wrong-code limit, single-use recovery
 * codes, organizations that require two-factor, sensitive actions that need a recent one, API
 * keys unaffected, sessions listed and revoked (a revoked `sid` answers 401), tokens without
 * `sid` still valid.
 */
import { createHmac } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { decode } from "next-auth/jwt";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auditLog, outbox, recoveryCodes, userSessions, userTotp } from "@/db/schema";
import { createUserSession } from "@/lib/services/sessions/create-session";
import { matchingStep } from "@/lib/services/two-factor/totp-code";
import { addMember, del, get, newOrg, newUser, patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { databaseDump } from "../helpers/dump";

afterEach(() => {
  vi.useRealTimers();
});

// RFC 6238 computed here, independently of the server's library.
function base32Decode(s: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of s.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

function hotp(key: Buffer, counter: number, digits = 6): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const bin = ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(bin % 10 ** digits).padStart(digits, "0");
}

/** The code of the 30-second step `offset` steps from now. */
const totp = (secret: string, offset = 0, now = Date.now()) => hotp(base32Decode(secret), Math.floor(now / 30_000) + offset);

const secretKey = process.env.NEXTAUTH_SECRET!;
const claimsOf = async (token: string) => (await decode({ token, secret: secretKey })) as Record<string, unknown>;

type Enrolled = TestUser & { secret: string; recoveryCodes: string[] };

/** A user who turned the authenticator app on (its first code used up by the enrolment). */
async function enrolled(name = "Staff"): Promise<Enrolled> {
  const user = await newUser(name);
  const started = await post("/api/me/two-factor/totp", undefined, { token: user.token });
  expect(started.status, started.text).toBe(200);
  const { secret } = started.body as { secret: string };
  const verified = await post("/api/me/two-factor/totp/verify", { code: totp(secret) }, { token: user.token });
  expect(verified.status, verified.text).toBe(200);
  return { ...user, secret, recoveryCodes: verified.body.recoveryCodes };
}

/** A token of that user's session that passed the second factor (a recovery code, so any number can be made). */
async function passed(user: Enrolled): Promise<string> {
  const code = user.recoveryCodes.pop()!;
  const res = await post("/api/me/two-factor/challenge", { code }, { token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body.token;
}

describe("the RFC 6238 computation these tests use", () => {
  it("gives RFC 6238's SHA-1 test vectors, and the server accepts what it gives", () => {
    const key = Buffer.from("12345678901234567890");
    // Appendix B, T = 59 and T = 1111111109 (8 digits; the last 6 are the 6-digit code).
    expect(hotp(key, Math.floor(59 / 30), 8)).toBe("94287082");
    expect(hotp(key, Math.floor(1111111109 / 30), 8)).toBe("07081804");
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"; // base32 of the same key
    expect(base32Decode(secret).equals(key)).toBe(true);
    const now = 1111111109_000;
    expect(matchingStep(secret, totp(secret, 0, now), now)).toBe(Math.floor(now / 30_000));
  });
});

describe("TOTP enrolment", () => {
  it("POST /api/me/two-factor/totp answers the secret and its otpauth URI; the secret is stored encrypted, never in clear", async () => {
    const user = await newUser();
    const res = await post("/api/me/two-factor/totp", undefined, { token: user.token });
    expect(res.status, res.text).toBe(200);
    const { secret, otpauthUrl } = res.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUrl);
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("algorithm")).toBe("SHA1");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
    expect(uri.searchParams.get("issuer")).toBe("Goodfund");
    const db = await testDb();
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, user.sub));
    expect(row.secretEncrypted.startsWith("enc:v1:")).toBe(true);
    expect(row.confirmedAt).toBeNull();
    expect(await databaseDump(["user_totp"])).not.toContain(secret);
  });

  it("POST /api/me/two-factor/totp/verify refuses a wrong code, then turns two-factor on with ten hashed recovery codes", async () => {
    const user = await newUser();
    const { secret } = (await post("/api/me/two-factor/totp", undefined, { token: user.token })).body;
    const wrong = await post("/api/me/two-factor/totp/verify", { code: totp(secret, 5) }, { token: user.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details.fieldErrors.code).toBeDefined();
    expect((await get("/api/me/two-factor", { token: user.token })).body.enabled).toBe(false);

    const ok = await post("/api/me/two-factor/totp/verify", { code: totp(secret) }, { token: user.token });
    expect(ok.status, ok.text).toBe(200);
    const codes: string[] = ok.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const status = await get("/api/me/two-factor", { token: user.token });
    expect(status.body).toMatchObject({ enabled: true, totp: true, passkeys: 0, recoveryCodesLeft: 10, sessionTwoFactorAt: null });

    const db = await testDb();
    const stored = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.sub));
    expect(stored).toHaveLength(10);
    const dump = await databaseDump(["recovery_codes"]);
    for (const c of codes) {
      expect(dump).not.toContain(c);
      expect(dump).not.toContain(c.replace("-", ""));
    }
    // Another enrolment while it is on adds a factor: a recent second factor first (403), then 409.
    expect((await post("/api/me/two-factor/totp", undefined, { token: user.token })).body.code).toBe("recent_two_factor_required");
    const fresh = (await post("/api/me/two-factor/challenge", { code: codes[0] }, { token: user.token })).body.token;
    expect((await post("/api/me/two-factor/totp", undefined, { token: fresh })).status).toBe(409);
    // Emailed: two-factor is on.
    const [mail] = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(sql`${outbox.payload}->>'template' = 'security-notice'`, sql`${outbox.payload}->>'to' = ${user.email}`));
    expect((mail.payload.props as { kind: string }).kind).toBe("two-factor-on");
  });
});

describe("POST /api/me/two-factor/challenge", () => {
  it("answers a session JWT with twoFactorAt and a new sid; a code is never accepted twice", async () => {
    const user = await enrolled();
    // The enrolment's own code (this step) was used: refused.
    const replayOfEnrolment = await post("/api/me/two-factor/challenge", { code: totp(user.secret) }, { token: user.token });
    expect(replayOfEnrolment.status).toBe(400);

    const next = totp(user.secret, 1);
    const res = await post("/api/me/two-factor/challenge", { code: next }, { token: user.token });
    expect(res.status, res.text).toBe(200);
    const claims = await claimsOf(res.body.token);
    expect(claims.sub).toBe(user.sub);
    expect(typeof claims.sid).toBe("string");
    expect(Math.abs((claims.twoFactorAt as number) - Date.now() / 1000)).toBeLessThan(120);
    expect(new Date(res.body.expiresAt).getTime()).toBeGreaterThan(Date.now());

    const replay = await post("/api/me/two-factor/challenge", { code: next }, { token: user.token });
    expect(replay.status).toBe(400);
    // An older step after a newer one: refused too.
    expect((await post("/api/me/two-factor/challenge", { code: totp(user.secret, -1) }, { token: user.token })).status).toBe(400);

    const status = await get("/api/me/two-factor", { token: res.body.token });
    expect(status.body.sessionTwoFactorAt).not.toBeNull();
  });

  it("a recovery code works once, in any case and with or without its dash", async () => {
    const user = await enrolled();
    const code = user.recoveryCodes[0];
    const first = await post("/api/me/two-factor/challenge", { code: code.toUpperCase().replace("-", " ") }, { token: user.token });
    expect(first.status, first.text).toBe(200);
    const again = await post("/api/me/two-factor/challenge", { code }, { token: user.token });
    expect(again.status).toBe(400);
    expect((await get("/api/me/two-factor", { token: user.token })).body.recoveryCodesLeft).toBe(9);
  });

  it("after 5 wrong codes in 15 minutes, every code answers 429 two_factor attempts; failures are audited and emailed once", async () => {
    const user = await enrolled();
    const { org } = await newOrg(user);
    const wrong = totp(user.secret, 7);
    for (let i = 0; i < 5; i++) {
      const res = await post("/api/me/two-factor/challenge", { code: wrong }, { token: user.token });
      expect(res.status).toBe(400);
      expect(res.body.details.codes.code[0]).toMatchObject({ code: "invalid_code", attemptsLeft: 4 - i });
    }
    const limited = await post("/api/me/two-factor/challenge", { code: totp(user.secret, 1) }, { token: user.token });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: 429, code: "too_many_two_factor_attempts" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // A recovery code is refused too while the limit holds.
    expect((await post("/api/me/two-factor/challenge", { code: user.recoveryCodes[0] }, { token: user.token })).status).toBe(429);

    const db = await testDb();
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, "two_factor.challenge_failed")));
    expect(entries).toHaveLength(5);
    expect(entries[0]).toMatchObject({ actorType: "user", actorId: user.sub, targetType: "member", targetId: user.sub });
    const mails = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(sql`${outbox.payload}->>'to' = ${user.email}`, sql`${outbox.payload}->'props'->>'kind' = 'wrong-code'`));
    expect(mails).toHaveLength(1);
  });

  it("without two-factor on: 409; without a token: 401; with an API key: 403", async () => {
    const user = await newUser();
    expect((await post("/api/me/two-factor/challenge", { code: "123456" }, { token: user.token })).status).toBe(409);
    expect((await post("/api/me/two-factor/challenge", { code: "123456" })).status).toBe(401);
    const { org, owner } = await newOrg();
    const key = await post(`/api/orgs/${org.id}/api-keys`, { name: "k", role: "ADMIN" }, { token: owner.token });
    expect((await post("/api/me/two-factor/challenge", { code: "123456" }, { token: key.body.key })).status).toBe(403);
  });
});

describe("the /api/me endpoints answer 401 without a token and 403 to an API key", () => {
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/me/two-factor"],
    ["DELETE", "/api/me/two-factor", { code: "123456" }],
    ["POST", "/api/me/two-factor/totp"],
    ["POST", "/api/me/two-factor/totp/verify", { code: "123456" }],
    ["POST", "/api/me/two-factor/challenge", { code: "123456" }],
    ["POST", "/api/me/two-factor/passkey/options"],
    ["POST", "/api/me/two-factor/recovery-codes"],
    ["GET", "/api/me/passkeys"],
    ["POST", "/api/me/passkeys/options"],
    ["PATCH", "/api/me/passkeys/pk_x", { name: "x" }],
    ["DELETE", "/api/me/passkeys/pk_x"],
    ["GET", "/api/me/sessions"],
    ["DELETE", "/api/me/sessions"],
    ["DELETE", "/api/me/sessions/ses_x"],
  ];
  it.each(calls)("%s %s", async (method, path, body) => {
    const { call } = await import("../helpers/api");
    expect((await call(method, path, { body })).status).toBe(401);
    const { org, owner } = await newOrg();
    const key = await post(`/api/orgs/${org.id}/api-keys`, { name: "k", role: "ADMIN" }, { token: owner.token });
    expect((await call(method, path, { body, token: key.body.key })).status).toBe(403);
  });
});

describe("organizations that require two-factor", () => {
  it("PATCH requireTwoFactor: the owner with a recent second factor (audited); admins 403; an owner without two-factor 409", async () => {
    const owner = await enrolled("Owner");
    const { org } = await newOrg(owner);
    const admin = await newUser("Admin");
    await get("/api/orgs", { token: admin.token });
    await addMember(org.id, owner.token, admin, "ADMIN");

    // The owner's plain token (no second factor in this session): recent one needed.
    const stale = await patch(`/api/orgs/${org.id}`, { requireTwoFactor: true }, { token: owner.token });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("recent_two_factor_required");
    expect((await patch(`/api/orgs/${org.id}`, { requireTwoFactor: true }, { token: admin.token })).status).toBe(403);

    const token = await passed(owner);
    const on = await patch(`/api/orgs/${org.id}`, { requireTwoFactor: true }, { token });
    expect(on.status, on.text).toBe(200);
    expect(on.body.requireTwoFactor).toBe(true);
    const db = await testDb();
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, "organization.two_factor_requirement_changed")));
    expect(entry.data).toEqual({ requireTwoFactor: true });

    const other = await newOrg();
    expect((await patch(`/api/orgs/${other.org.id}`, { requireTwoFactor: true }, { token: other.owner.token })).status).toBe(409);
  });

  it("a session without twoFactorAt gets 403 two_factor_required on the organization's endpoints; API keys are unaffected", async () => {
    const owner = await enrolled("Owner");
    const { org } = await newOrg(owner);
    const ownerToken = await passed(owner);
    const key = await post(`/api/orgs/${org.id}/api-keys`, { name: "Reporting", role: "MEMBER" }, { token: ownerToken });
    expect(key.status, key.text).toBe(201);
    const member = await newUser("Member");
    await get("/api/orgs", { token: member.token });
    await addMember(org.id, ownerToken, member, "MEMBER");
    expect((await patch(`/api/orgs/${org.id}`, { requireTwoFactor: true }, { token: ownerToken })).status).toBe(200);

    for (const path of [`/api/orgs/${org.id}`, `/api/orgs/${org.slug}/campaigns`, `/api/orgs/${org.id}/donations`]) {
      const res = await get(path, { token: member.token });
      expect(res.status, path).toBe(403);
      expect(res.body).toMatchObject({ status: 403, code: "two_factor_required" });
      expect(res.body.error).toMatch(/turn it on/);
    }
    // The owner's own plain token too (they have two-factor, but this session did not pass it).
    const plain = await get(`/api/orgs/${org.id}`, { token: owner.token });
    expect(plain.body.code).toBe("two_factor_required");
    expect(plain.body.error).toMatch(/challenge/);
    // 401 and 404 still come first.
    expect((await get(`/api/orgs/${org.id}`)).status).toBe(401);
    expect((await get(`/api/orgs/no-such-org-here`, { token: member.token })).status).toBe(404);

    // The API key is unaffected.
    expect((await get(`/api/orgs/${org.id}/campaigns`, { token: key.body.key })).status).toBe(200);

    // The member enrols (the /api/me endpoints are open to them) and passes: the organization opens.
    const { secret } = (await post("/api/me/two-factor/totp", undefined, { token: member.token })).body;
    const verified = await post("/api/me/two-factor/totp/verify", { code: totp(secret) }, { token: member.token });
    const memberToken = (await post("/api/me/two-factor/challenge", { code: verified.body.recoveryCodes[0] }, { token: member.token })).body
      .token;
    expect((await get(`/api/orgs/${org.id}/campaigns`, { token: memberToken })).status).toBe(200);
    // Creating an API key there needs the second factor: the plain session cannot.
    expect((await post(`/api/orgs/${org.id}/api-keys`, { name: "x", role: "MEMBER" }, { token: owner.token })).body.code).toBe(
      "two_factor_required",
    );
  });
});

describe("sensitive actions need a second factor within 15 minutes", () => {
  it("POST api-keys: 403 recent_two_factor_required without one or after 15 minutes; fine with a recent one, and for users without two-factor", async () => {
    const owner = await enrolled("Owner");
    const { org } = await newOrg(owner);
    const body = { name: "CRM", role: "ADMIN" };
    const refused = await post(`/api/orgs/${org.id}/api-keys`, body, { token: owner.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: expect.stringContaining("15 minutes"),
      status: 403,
      code: "recent_two_factor_required",
    });
    const token = await passed(owner);
    expect((await post(`/api/orgs/${org.id}/api-keys`, body, { token })).status).toBe(201);
    // Reading is not sensitive.
    expect((await get(`/api/orgs/${org.id}/api-keys`, { token: owner.token })).status).toBe(200);

    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 16 * 60_000 });
    const later = await post(`/api/orgs/${org.id}/webhook-endpoints`, { url: "https://hooks.example.org/goodfund" }, { token });
    expect(later.status).toBe(403);
    expect(later.body.code).toBe("recent_two_factor_required");
    vi.useRealTimers();

    // Someone without two-factor has nothing to confirm.
    const plain = await newOrg();
    expect((await post(`/api/orgs/${plain.org.id}/api-keys`, body, { token: plain.owner.token })).status).toBe(201);
  });

  it("role changes need it too; an API key is unaffected by the rule", async () => {
    const owner = await enrolled("Owner");
    const { org } = await newOrg(owner);
    const member = await newUser("Member");
    await get("/api/orgs", { token: member.token });
    const token = await passed(owner);
    await addMember(org.id, token, member, "MEMBER");
    const refused = await patch(`/api/orgs/${org.id}/members/${member.sub}`, { role: "ADMIN" }, { token: owner.token });
    expect(refused.body.code).toBe("recent_two_factor_required");
    expect((await patch(`/api/orgs/${org.id}/members/${member.sub}`, { role: "ADMIN" }, { token })).status).toBe(200);
  });
});

describe("sessions", () => {
  it("GET /api/me/sessions lists them (current marked); DELETE /api/me/sessions/:id makes its tokens answer 401", async () => {
    const user = await enrolled();
    const { org } = await newOrg(user);
    // A challenge from a token without sid starts a listed session.
    const token = await passed(user);
    const { sid } = await claimsOf(token);
    const list = await get("/api/me/sessions", { token });
    expect(list.status).toBe(200);
    const mine = list.body.data.find((s: { id: string }) => s.id === sid);
    expect(mine).toMatchObject({ current: true, method: "api", device: expect.any(String), network: expect.any(String) });
    expect(mine.twoFactorAt).not.toBeNull();

    expect((await get(`/api/orgs/${org.id}`, { token })).status).toBe(200);
    expect((await del(`/api/me/sessions/${sid}`, { token: user.token })).status).toBe(204);
    expect((await get(`/api/orgs/${org.id}`, { token })).status).toBe(401);
    expect((await get("/api/me/sessions", { token })).status).toBe(401);
    // Twice: it is gone.
    expect((await del(`/api/me/sessions/${sid}`, { token: user.token })).status).toBe(404);
    // The token without sid keeps working (contract section 2).
    expect((await get(`/api/orgs/${org.id}`, { token: user.token })).status).toBe(200);

    const db = await testDb();
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.orgId, org.id), eq(auditLog.action, "session.revoked")));
    expect(entries).toHaveLength(1);
  });

  it("another user's session is 404; DELETE /api/me/sessions signs out all the others", async () => {
    const user = await enrolled();
    const stranger = await newUser("Stranger");
    const a = await passed(user);
    const b = await passed(user);
    const c = await passed(user);
    const { sid: sidA } = await claimsOf(a);
    expect((await del(`/api/me/sessions/${sidA}`, { token: stranger.token })).status).toBe(404);
    expect((await get("/api/me/sessions", { token: a })).status).toBe(200);

    const res = await del("/api/me/sessions", { token: c });
    expect(res.status).toBe(200);
    expect(res.body.revoked).toBe(2);
    expect((await get("/api/me/sessions", { token: a })).status).toBe(401);
    expect((await get("/api/me/sessions", { token: b })).status).toBe(401);
    const left = await get("/api/me/sessions", { token: c });
    expect(left.body.data.map((s: { current: boolean }) => s.current)).toEqual([true]);
  });

  it("a new device and network is emailed; the same one again, or a first sign-in ever, is not", async () => {
    const user = await newUser();
    await get("/api/orgs", { token: user.token });
    const db = await testDb();
    const chrome = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0";
    await createUserSession(db, { userId: user.sub, method: "email", userAgent: chrome, clientIp: "203.0.113.7" });
    await createUserSession(db, { userId: user.sub, method: "email", userAgent: chrome, clientIp: "203.0.113.99" });
    await createUserSession(db, { userId: user.sub, method: "github", userAgent: firefox, clientIp: "198.51.100.4" });
    const mails = await db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(and(sql`${outbox.payload}->>'to' = ${user.email}`, sql`${outbox.payload}->'props'->>'kind' = 'new-sign-in'`));
    expect(mails).toHaveLength(1);
    expect(mails[0].payload.props).toMatchObject({ device: "Firefox on Windows", network: "198.51.100.0/24" });
    const rows = await db.select().from(userSessions).where(eq(userSessions.userId, user.sub));
    expect(rows.map((r) => r.device).sort()).toEqual(["Chrome on macOS", "Chrome on macOS", "Firefox on Windows"]);
    // Never the full address.
    expect(JSON.stringify(rows)).not.toContain("203.0.113.7");
  });
});

describe("DELETE /api/me/two-factor", () => {
  it("needs a valid code; then two-factor is off, audited, and the organization's rule applies again", async () => {
    const user = await enrolled();
    const { org } = await newOrg(user);
    expect((await del("/api/me/two-factor", { token: user.token, body: { code: "000000" } })).status).toBe(400);
    const off = await del("/api/me/two-factor", { token: user.token, body: { code: totp(user.secret, 1) } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, totp: false, recoveryCodesLeft: 0 });
    const db = await testDb();
    const actions = (await db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.orgId, org.id))).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["two_factor.challenge_failed", "two_factor.disabled"]));
    // Without two-factor, a sensitive action needs nothing more.
    expect((await post(`/api/orgs/${org.id}/api-keys`, { name: "k", role: "MEMBER" }, { token: user.token })).status).toBe(201);
    expect((await del("/api/me/two-factor", { token: user.token, body: { code: "000000" } })).status).toBe(409);
  });
});
