/**
 * Sign-in links (next-auth email provider): limited per address and per client IP with a clear
 * error code for the sign-in page, never logged outside an embedded sandbox install (donor account
 * links neither), purged from the
 * outbox once sent or failed for good (kept for the sandbox mailbox on a local install until they
 * expire), tokens stored hashed, and expired tokens deleted by the worker.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { outbox, verificationTokens } from "@/db/schema";
import { signInLinksKeptForMailbox, signInLinksLogged } from "@/lib/services/sign-in/sign-in-links";
import { getEnv, resetEnv } from "@/lib/env";
import { MAX_ATTEMPTS, runWorkerOnce } from "@/lib/jobs/worker";
import { getPolicy, resetRateLimiter } from "@/lib/ratelimit";
import { testDb } from "../helpers/db";
import { post } from "../helpers/api";
import { handleSignInRequests, queuedSignInEmails } from "../helpers/email";
import { activeCampaign, activeOrg, paidDonation } from "../helpers/records";
import { linkOf, requestSignInLink } from "../helpers/sign-in";
import { startInsideWindow } from "../helpers/rate-window";

/** An organization taking gifts, and a campaign of it (made in sandbox mode, whatever the case switches to later). */
async function givingOrg() {
  const { owner, org } = await activeOrg();
  return { org, campaign: await activeCampaign(org, owner) };
}

const saved = { ...process.env };
const KEYS = [
  "DATABASE_URL",
  "RESEND_API_KEY",
  "RESEND_BASE_URL",
  "LOG_LEVEL",
  "SIGNIN_LINKS_PER_IP",
  "NODE_ENV",
  "PAYMENTS_MODE",
  "STRIPE_SECRET_KEY",
] as const;
function setEnv(values: Partial<Record<(typeof KEYS)[number], string | undefined>>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else (process.env as Record<string, string | undefined>)[k] = v;
  }
  resetEnv();
}
afterEach(() => {
  for (const k of KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else (process.env as Record<string, string | undefined>)[k] = saved[k];
  }
  resetEnv();
  resetRateLimiter();
  vi.restoreAllMocks();
});

/** A Postgres deployment as the server sees it (the test keeps its own database connection). */
const deployment = () =>
  setEnv({
    DATABASE_URL: saved.DATABASE_URL ?? "postgres://deployment.invalid/goodfund",
    NODE_ENV: "production",
    PAYMENTS_MODE: "sandbox",
  });
/** An embedded install: no DATABASE_URL (the connection already open stays the test's). */
const embedded = () => setEnv({ DATABASE_URL: undefined, PAYMENTS_MODE: "sandbox", STRIPE_SECRET_KEY: undefined });
/** An embedded install taking real payments: Stripe mode (nothing here calls Stripe). */
const embeddedStripe = () => setEnv({ DATABASE_URL: undefined, PAYMENTS_MODE: "stripe", STRIPE_SECRET_KEY: "sk_test_goodfund_embedded" });

const uid = () => randomBytes(5).toString("hex");
const ipv4 = () => `198.51.${randomInt(256)}.${randomInt(1, 255)}`;

// A stand-in for the Resend API (the real SDK talks to it through RESEND_BASE_URL).
const resend = { server: undefined as Server | undefined, url: "", bodies: [] as string[], failing: false };
beforeAll(async () => {
  await testDb();
  resend.server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      resend.bodies.push(raw);
      if (resend.failing) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ statusCode: 500, name: "internal_server_error", message: "An unexpected error occurred." }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: `re_${uid()}` }));
    });
  });
  await new Promise<void>((r) => resend.server!.listen(0, "127.0.0.1", r));
  resend.url = `http://127.0.0.1:${(resend.server!.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => (resend.server ? resend.server.close(() => r()) : r())));

describe("sign-in link limits", () => {
  /** The per-IP limit counts in fixed windows of its own length (15 minutes by default). */
  const insideOneWindow = () => startInsideWindow(10_000, getPolicy("signin-ip").windowMs);

  it("POST /api/auth/signin/email refuses the 11th request from one IP within the window, with TooManySignInRequests", async () => {
    const ip = ipv4();
    await insideOneWindow();
    for (let i = 0; i < 10; i++) {
      const res = await requestSignInLink(`ip-${uid()}@example.org`, ip);
      expect(res.error, res.redirect).toBeNull();
      expect(res.outboxId).not.toBeNull();
    }
    const refused = await requestSignInLink(`ip-${uid()}@example.org`, ip);
    expect(refused.error).toBe("TooManySignInRequests");
    expect(refused.redirect).toBe(`${getEnv().appUrl}/signin?error=TooManySignInRequests`);
    expect(refused.outboxId).toBeNull();
    // Another client is not affected.
    expect((await requestSignInLink(`ip-${uid()}@example.org`, ipv4())).error).toBeNull();
  });

  it("SIGNIN_LINKS_PER_IP sets the per-IP limit", async () => {
    setEnv({ SIGNIN_LINKS_PER_IP: "2" });
    const ip = ipv4();
    await insideOneWindow();
    expect((await requestSignInLink(`env-${uid()}@example.org`, ip)).error).toBeNull();
    expect((await requestSignInLink(`env-${uid()}@example.org`, ip)).error).toBeNull();
    expect((await requestSignInLink(`env-${uid()}@example.org`, ip)).error).toBe("TooManySignInRequests");
  });

  it("POST /api/auth/signin/email refuses a 6th link to one address within 15 minutes, with TooManySignInEmails, from any IP", async () => {
    const email = `addr-${uid()}@example.org`;
    for (let i = 0; i < 5; i++) expect((await requestSignInLink(email, ipv4())).error).toBeNull();
    const refused = await requestSignInLink(email, ipv4());
    expect(refused.error).toBe("TooManySignInEmails");
    expect(refused.outboxId).toBeNull();
    const db = await testDb();
    const tokens = await db.select().from(verificationTokens).where(eq(verificationTokens.identifier, email));
    expect(tokens).toHaveLength(5);
    // The address is matched as next-auth normalizes it.
    expect((await requestSignInLink(email.toUpperCase(), ipv4())).error).toBe("TooManySignInEmails");
  });
});

describe("sign-in links at rest and in the logs", () => {
  it("stores only a hash of the token (sha256 of the token and NEXTAUTH_SECRET)", async () => {
    const email = `hash-${uid()}@example.org`;
    const res = await requestSignInLink(email, ipv4());
    const url = new URL((await linkOf(res.outboxId!))!);
    const token = url.searchParams.get("token")!;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const db = await testDb();
    const [row] = await db.select().from(verificationTokens).where(eq(verificationTokens.identifier, email));
    expect(row.token).not.toBe(token);
    expect(row.token).toBe(createHash("sha256").update(`${token}${getEnv().nextAuthSecret}`).digest("hex"));
  });

  it("prints staff sign-in links to the log only on an embedded sandbox install that sends no email", async () => {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string) => {
      lines.push(String(chunk));
      return true;
    }) as never);
    setEnv({ LOG_LEVEL: "info" });
    const tokenOf = async (outboxId: number) => new URL((await linkOf(outboxId))!).searchParams.get("token")!;

    deployment();
    expect(signInLinksLogged()).toBe(false);
    const prod = await requestSignInLink(`prod-${uid()}@example.org`, ipv4());
    expect(lines.join("")).not.toContain(await tokenOf(prod.outboxId!));

    // An embedded install taking real payments is someone's live site: no links in its log either.
    embeddedStripe();
    expect(signInLinksLogged()).toBe(false);
    const live = await requestSignInLink(`live-${uid()}@example.org`, ipv4());
    expect(lines.join("")).not.toContain(await tokenOf(live.outboxId!));

    embedded();
    expect(signInLinksLogged()).toBe(true);
    const local = await requestSignInLink(`local-${uid()}@example.org`, ipv4());
    const localLink = (await linkOf(local.outboxId!))!;
    expect(lines.join("")).toContain(JSON.stringify(localLink).slice(1, -1));

    // With a Resend key the link goes by email only, even on an embedded install.
    setEnv({ RESEND_API_KEY: "re_test", RESEND_BASE_URL: resend.url });
    expect(signInLinksLogged()).toBe(false);
    const mailed = await requestSignInLink(`mailed-${uid()}@example.org`, ipv4());
    expect(lines.join("")).not.toContain(await tokenOf(mailed.outboxId!));
    vi.mocked(process.stdout.write).mockRestore();
  });

  it("prints donor account sign-in links to the log only on an embedded sandbox install that sends no email", async () => {
    const { org, campaign } = await givingOrg();
    const lines: string[] = [];
    setEnv({ LOG_LEVEL: "info" });
    // Donors who gave (in sandbox mode, before the cases switch modes).
    const donorsToAsk: string[] = [];
    for (let i = 0; i < 3; i++) {
      const email = `donor-${uid()}@example.org`;
      await paidDonation(campaign.id, { email });
      donorsToAsk.push(email);
    }
    // A donor's link, asked for through the API and made by the worker while the log is captured.
    const donorLinkLogged = async () => {
      const email = donorsToAsk.shift()!;
      expect((await post(`/api/public/orgs/${org.slug}/donor-sessions`, { email }, { ip: ipv4() })).status).toBe(202);
      const spy = vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string) => {
        lines.push(String(chunk));
        return true;
      }) as never);
      try {
        expect(await handleSignInRequests(email)).toBe(1);
      } finally {
        spy.mockRestore();
      }
      const [mail] = await queuedSignInEmails(email);
      const token = new URL(mail.props.url).searchParams.get("token")!;
      return lines.join("").includes(token);
    };

    deployment();
    expect(await donorLinkLogged()).toBe(false);
    embeddedStripe();
    expect(await donorLinkLogged()).toBe(false);
    embedded();
    expect(await donorLinkLogged()).toBe(true);
  });

  it("a sign-in email sent through Resend has its link purged in the update that marks it SENT", async () => {
    setEnv({ RESEND_API_KEY: "re_test", RESEND_BASE_URL: resend.url });
    const email = `resend-${uid()}@example.org`;
    const res = await requestSignInLink(email, ipv4());
    const link = (await linkOf(res.outboxId!))!;
    const db = await testDb();
    const [queued] = await db.select().from(outbox).where(eq(outbox.id, res.outboxId!));
    expect(queued.payload).toMatchObject({ template: "magic-link", to: email, purgeWhenSent: ["props"] });

    await runWorkerOnce(db, { ids: [res.outboxId!] });
    const [sent] = await db.select().from(outbox).where(eq(outbox.id, res.outboxId!));
    expect(sent.status).toBe("SENT");
    expect(sent.payload).toEqual({ template: "magic-link", to: email, purged: true });
    // It did go out, with the link.
    expect(resend.bodies.some((b) => b.includes(new URL(link).searchParams.get("token")!))).toBe(true);
  });

  it("a sign-in email that fails for good has its link purged in the update that marks it FAILED; a failure to retry keeps it", async () => {
    setEnv({ RESEND_API_KEY: "re_test", RESEND_BASE_URL: resend.url });
    resend.failing = true;
    try {
      const email = `failing-${uid()}@example.org`;
      const res = await requestSignInLink(email, ipv4());
      const link = (await linkOf(res.outboxId!))!;
      const db = await testDb();
      const row = async () => (await db.select().from(outbox).where(eq(outbox.id, res.outboxId!)))[0];

      // A failed attempt that will be retried needs the link.
      await runWorkerOnce(db, { ids: [res.outboxId!] });
      expect(await row()).toMatchObject({
        status: "PENDING",
        attempts: 1,
        payload: { template: "magic-link", to: email, props: { url: link } },
      });

      // The last attempt fails too: FAILED for good, and nothing of the link is left.
      await db
        .update(outbox)
        .set({ attempts: MAX_ATTEMPTS - 1, nextAttemptAt: sql`now()` })
        .where(eq(outbox.id, res.outboxId!));
      await runWorkerOnce(db, { ids: [res.outboxId!] });
      const failed = await row();
      expect(failed.status).toBe("FAILED");
      expect(failed.lastError).toContain("500");
      expect(failed.payload).toEqual({ template: "magic-link", to: email, purged: true });
      expect(JSON.stringify(failed)).not.toContain(new URL(link).searchParams.get("token")!);
    } finally {
      resend.failing = false;
    }
  });

  it("on a deployment without Resend the local-only send purges the link too", async () => {
    deployment();
    expect(signInLinksKeptForMailbox()).toBe(false);
    const email = `deploy-${uid()}@example.org`;
    const res = await requestSignInLink(email, ipv4());
    const db = await testDb();
    await runWorkerOnce(db, { ids: [res.outboxId!] });
    const [sent] = await db.select().from(outbox).where(eq(outbox.id, res.outboxId!));
    expect(sent.status).toBe("SENT");
    expect(sent.payload).toEqual({ template: "magic-link", to: email, purged: true });
  });

  it("on a local sandbox install the mailbox keeps the link until it expires; then the worker purges it", async () => {
    embedded();
    expect(signInLinksKeptForMailbox()).toBe(true);
    const email = `mailbox-${uid()}@example.org`;
    const res = await requestSignInLink(email, ipv4());
    const link = (await linkOf(res.outboxId!))!;
    const db = await testDb();
    await runWorkerOnce(db, { ids: [res.outboxId!] });
    const [kept] = await db.select().from(outbox).where(eq(outbox.id, res.outboxId!));
    expect(kept.status).toBe("SENT");
    // What /sandbox/mailbox reads: the magic-link row's props.url.
    expect(kept.payload).toMatchObject({ template: "magic-link", to: email, props: { url: link } });

    await db.execute(sql`update ${outbox} set created_at = now() - interval '61 minutes' where id = ${res.outboxId!}`);
    await db.execute(sql`update ${verificationTokens} set expires = now() - interval '1 minute' where identifier = ${email}`);
    await runWorkerOnce(db, { ids: [] });
    const [purged] = await db.select().from(outbox).where(eq(outbox.id, res.outboxId!));
    expect(purged.payload).toEqual({ template: "magic-link", to: email, purged: true });
  });

  it("the worker deletes expired verification tokens and keeps valid ones", async () => {
    const db = await testDb();
    const email = `expiry-${uid()}@example.org`;
    await db.insert(verificationTokens).values([
      { identifier: email, token: `old-${uid()}`, expires: new Date(Date.now() - 60_000) },
      { identifier: email, token: `new-${uid()}`, expires: new Date(Date.now() + 3_600_000) },
    ]);
    await runWorkerOnce(db, { ids: [] });
    const left = await db
      .select()
      .from(verificationTokens)
      .where(and(eq(verificationTokens.identifier, email)));
    expect(left.map((t) => t.token)).toEqual([expect.stringMatching(/^new-/)]);
  });
});
