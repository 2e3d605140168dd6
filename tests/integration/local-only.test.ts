import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { CLIENT_IP_HEADER } from "@/lib/api/client-ip";
import { isDemoSignInAvailable, isLoopbackHost, isLoopbackRequest, isMailboxAvailable } from "@/lib/auth/modes";
import { getAuthOptions } from "@/lib/auth/options";
import { resetEnv } from "@/lib/env";
import { DEMO_OWNER } from "@/lib/auth/demo-owner";
import { serverClientIpHeaders } from "../helpers/api";
import { testDb } from "../helpers/db";

// The sandbox mailbox and the one-click demo sign-in exist only on an embedded (no DATABASE_URL)
// sandbox install, and answer only loopback clients: the socket address our server proves, and
// every hop a proxy recorded. (tests/e2e covers the same through the real server and next-auth.)

const saved = { ...process.env };
/** An embedded sandbox install (the default of a fresh checkout), whatever database this run uses. */
function embeddedSandbox() {
  delete process.env.DATABASE_URL;
  delete process.env.RESEND_API_KEY;
  process.env.PAYMENTS_MODE = "sandbox";
  resetEnv();
}
afterEach(() => {
  for (const k of ["DATABASE_URL", "PAYMENTS_MODE", "STRIPE_SECRET_KEY", "RESEND_API_KEY"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
});

/**
 * The headers a page or route sees for a connection from `ip` through our server (server/main.ts) (Next.js
 * adds X-Forwarded-For), asking for `localhost:3000` unless `extra` names another Host.
 */
const from = (ip: string, extra: Record<string, string> = {}) =>
  new Headers({ ...serverClientIpHeaders(ip), "x-forwarded-for": ip, host: "localhost:3000", ...extra });

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ id: string } | null>;
function demoAuthorize(): Authorize | undefined {
  // next-auth merges a provider's `options` over its defaults (whose id is "credentials").
  const all = getAuthOptions().providers as unknown as { options?: { id?: string; authorize?: Authorize } }[];
  return all.find((p) => p.options?.id === "demo")?.options?.authorize;
}

beforeAll(async () => {
  const db = await testDb();
  await db.insert(users).values({ id: DEMO_OWNER.id, email: DEMO_OWNER.email, name: DEMO_OWNER.name }).onConflictDoNothing();
});

describe("loopback clients", () => {
  it("are 127.0.0.0/8, ::1 and IPv4-mapped 127.x, as proven by our server", () => {
    for (const ip of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackRequest(from(ip)), ip).toBe(true);
    for (const ip of ["10.0.0.1", "192.168.1.20", "203.0.113.9", "::ffff:10.0.0.1", "2001:db8::1", "::"])
      expect(isLoopbackRequest(from(ip)), ip).toBe(false);
  });

  it("are not a client-IP header without our server's proof, nor a request a local proxy relayed from elsewhere", () => {
    expect(isLoopbackRequest(new Headers({ [CLIENT_IP_HEADER]: "127.0.0.1" }))).toBe(false);
    expect(isLoopbackRequest(new Headers())).toBe(false);
    expect(isLoopbackRequest(from("127.0.0.1", { "x-forwarded-for": "203.0.113.9, 127.0.0.1" }))).toBe(false);
    expect(isLoopbackRequest(from("127.0.0.1", { "x-real-ip": "203.0.113.9" }))).toBe(false);
    expect(isLoopbackRequest(from("127.0.0.1", { forwarded: "for=203.0.113.9" }))).toBe(false);
    // next-auth hands authorize() the headers as a plain object.
    expect(isLoopbackRequest(Object.fromEntries(from("127.0.0.1")))).toBe(true);
    expect(isLoopbackRequest(Object.fromEntries(from("198.51.100.4")))).toBe(false);
  });
});

describe("the Host a loopback client asks for", () => {
  it("must be a loopback name: localhost, 127.x or [::1], with any port", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "LOCALHOST:8080",
      "127.0.0.1",
      "127.0.0.1:3000",
      "127.1.2.3:80",
      "[::1]",
      "[::1]:3000",
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      null,
      "",
      "give.example.org",
      "goodfund.example.org:443",
      "203.0.113.5",
      "10.0.0.1:3000",
      "[2001:db8::1]:3000",
      "localhost.example.org",
      "127.0.0.1.nip.io",
      "::1",
    ])
      expect(isLoopbackHost(host), String(host)).toBe(false);
  });

  it("gives away a visitor relayed by a same-host proxy that adds no forwarding headers (nginx's default proxy_pass)", () => {
    // The proxy connects from 127.0.0.1 and adds nothing, but passes on the site's public name.
    expect(isLoopbackRequest(from("127.0.0.1", { host: "give.example.org" }))).toBe(false);
    expect(isLoopbackRequest(from("::1", { host: "goodfund.example.org:443" }))).toBe(false);
    expect(isLoopbackRequest(new Headers({ ...serverClientIpHeaders("127.0.0.1"), "x-forwarded-for": "127.0.0.1" }))).toBe(false);
    // The developer's own browser on the same machine.
    for (const host of ["localhost:3000", "127.0.0.1:3000", "[::1]:3000"])
      expect(isLoopbackRequest(from("127.0.0.1", { host })), host).toBe(true);
  });
});

describe("GET /sandbox/mailbox and the demo sign-in on an embedded sandbox install", () => {
  it("are available to a loopback client", async () => {
    embeddedSandbox();
    const db = await testDb();
    expect(isMailboxAvailable(from("127.0.0.1"))).toBe(true);
    expect(await isDemoSignInAvailable(db, from("::1"))).toBe(true);
    const authorize = demoAuthorize();
    expect(authorize, "demo provider offered").toBeDefined();
    expect(await authorize!({}, { headers: Object.fromEntries(from("127.0.0.1")) })).toMatchObject({ id: DEMO_OWNER.id });
  });

  it("are refused to any other client (mailbox 404, demo sign-in fails)", async () => {
    embeddedSandbox();
    const db = await testDb();
    expect(isMailboxAvailable(from("192.168.1.20"))).toBe(false);
    expect(isMailboxAvailable(from("127.0.0.1", { "x-forwarded-for": "203.0.113.9, 127.0.0.1" }))).toBe(false);
    expect(await isDemoSignInAvailable(db, from("203.0.113.9"))).toBe(false);
    expect(await demoAuthorize()!({}, { headers: Object.fromEntries(from("203.0.113.9")) })).toBeNull();
    expect(await demoAuthorize()!({}, { headers: { [CLIENT_IP_HEADER]: "127.0.0.1" } })).toBeNull();
  });

  it("are refused to a loopback connection asking for a public host name (a same-host proxy relaying a visitor)", async () => {
    embeddedSandbox();
    const db = await testDb();
    const relayed = from("127.0.0.1", { host: "give.example.org" });
    expect(isMailboxAvailable(relayed)).toBe(false);
    expect(await isDemoSignInAvailable(db, relayed)).toBe(false);
    expect(await demoAuthorize()!({}, { headers: Object.fromEntries(relayed) })).toBeNull();
    // The same connection asking for localhost is the developer's own.
    expect(isMailboxAvailable(from("127.0.0.1", { host: "localhost:3000" }))).toBe(true);
    expect(await demoAuthorize()!({}, { headers: Object.fromEntries(from("127.0.0.1", { host: "127.0.0.1:3000" })) })).toMatchObject({
      id: DEMO_OWNER.id,
    });
  });

  it("the mailbox is closed when emails really go out (RESEND_API_KEY)", () => {
    embeddedSandbox();
    process.env.RESEND_API_KEY = "re_test_local_only";
    resetEnv();
    expect(isMailboxAvailable(from("127.0.0.1"))).toBe(false);
  });
});

describe("on a PostgreSQL install (DATABASE_URL set)", () => {
  it("neither exists, even for a loopback client in sandbox mode: no demo provider at all", async () => {
    process.env.DATABASE_URL = saved.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/unused";
    process.env.PAYMENTS_MODE = "sandbox";
    resetEnv();
    const db = await testDb();
    expect(isMailboxAvailable(from("127.0.0.1"))).toBe(false);
    expect(await isDemoSignInAvailable(db, from("127.0.0.1"))).toBe(false);
    expect(demoAuthorize()).toBeUndefined();
  });
});
