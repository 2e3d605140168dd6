import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliToken, ensureBuild, startServer, type RunningServer } from "../helpers/server";

// `npm start` as a new user runs it: production build, embedded database, demo data, a token
// from `npm run token`, then the API over real HTTP on a real socket.
const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-e2e-"));
const embedded = { GOODFUND_DATA_DIR: dataDir, DATABASE_URL: undefined, PGLITE_DIR: undefined, TEST_DATABASE_URL: undefined, NEXTAUTH_SECRET: undefined, REDIS_URL: undefined };
let server: RunningServer;

beforeAll(async () => {
  await ensureBuild();
  server = await startServer(embedded);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = (token?: string) => ({
  "content-type": "application/json",
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

describe("npm start (embedded)", () => {
  it("serves the landing page that links to the API reference", async () => {
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Goodfund");
    expect(html).toContain("/api/openapi.json");
    expect(html).toContain('href="/docs"');
  });

  it("renders the API reference at /docs from the OpenAPI document, every operation included", async () => {
    const res = await fetch(`${server.url}/docs`);
    expect(res.status).toBe(200);
    const html = (await res.text()).replace(/<!-- -->/g, "");
    const doc = await (await fetch(`${server.url}/api/openapi.json`)).json();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
      expect(html, path).toContain(path);
      for (const op of Object.values(item)) expect(html, op.operationId).toContain(`id="${op.operationId.replace(/[^a-zA-Z0-9]+/g, "-").toLowerCase()}"`);
    }
  });

  it("seeds the demo organization, reachable with a token from npm run token", async () => {
    const token = cliToken("demo@goodfund.local", embedded);
    const res = await fetch(`${server.url}/api/orgs`, { headers: json(token) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.map((o: { slug: string }) => o.slug)).toEqual(["demo"]);
    const campaigns = await (await fetch(`${server.url}/api/orgs/demo/campaigns`, { headers: json(token) })).json();
    expect(campaigns.data.length).toBeGreaterThanOrEqual(5);
  });

  it("lets a new user create an organization and campaigns and lists them newest first", async () => {
    const token = cliToken("ada@example.org", embedded);
    const org = await fetch(`${server.url}/api/orgs`, { method: "POST", headers: json(token), body: JSON.stringify({ name: "Ada's Fund" }) });
    expect(org.status).toBe(201);
    const { slug } = await org.json();
    const ids: string[] = [];
    for (const title of ["First", "Second", "Third"]) {
      const res = await fetch(`${server.url}/api/orgs/${slug}/campaigns`, { method: "POST", headers: json(token), body: JSON.stringify({ title }) });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const list = await (await fetch(`${server.url}/api/orgs/${slug}/campaigns`, { headers: json(token) })).json();
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
  });

  it("answers unknown API routes with the JSON error shape", async () => {
    const res = await fetch(`${server.url}/api/does-not-exist`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await res.json()).toEqual({ error: "Not found", status: 404 });
  });

  it("limits public requests per socket address, ignoring X-Forwarded-For and spoofed client-IP headers", async () => {
    const url = `${server.url}/api/public/orgs/demo/campaigns/winter-meals`;
    let last: Response | undefined;
    for (let i = 1; i <= 100; i++) {
      last = await fetch(url, { headers: { "x-forwarded-for": `203.0.113.${i}`, "x-goodfund-client-ip": `198.51.100.${i}` } });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get("x-ratelimit-limit")).toBe("100");
    expect(last!.headers.get("x-ratelimit-remaining")).toBe("0");
    const denied = await fetch(url, { headers: { "x-forwarded-for": "192.0.2.200" } });
    expect(denied.status).toBe(429);
    expect(Number(denied.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await denied.json()).toEqual({ error: "Too many requests", status: 429 });
  });

  it("keeps data, the generated secret and the demo across a restart, and trusts the rightmost X-Forwarded-For entry with TRUST_PROXY=1", async () => {
    const token = cliToken("ada@example.org", embedded);
    await server.stop();
    server = await startServer({ ...embedded, TRUST_PROXY: "1" });
    const orgs = await (await fetch(`${server.url}/api/orgs`, { headers: json(token) })).json();
    expect(orgs.data.map((o: { name: string }) => o.name)).toEqual(["Ada's Fund"]);
    const demo = await (await fetch(`${server.url}/api/orgs`, { headers: json(cliToken("demo@goodfund.local", embedded)) })).json();
    expect(demo.data).toHaveLength(1);

    const url = `${server.url}/api/public/orgs/demo/campaigns/winter-meals`;
    // The proxy appends the address it saw; anything left of that was sent by the client.
    const a = await fetch(url, { headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" } });
    const b = await fetch(url, { headers: { "x-forwarded-for": "203.0.113.8" } });
    const spoofed = await fetch(url, { headers: { "x-forwarded-for": "198.51.100.9, 10.0.0.1" } });
    expect(a.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(b.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(spoofed.headers.get("x-ratelimit-remaining")).toBe("98");
  });
});

/** Signs in with the one-click demo provider as the sign-in page does; the session cookie, or null when refused. */
async function demoSignIn(headers: Record<string, string> = {}): Promise<string | null> {
  const csrf = await fetch(`${server.url}/api/auth/csrf`, { headers });
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const res = await fetch(`${server.url}/api/auth/callback/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/dashboard/demo", json: "true" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  return session ? session.split(";")[0] : null;
}

describe("npm start (embedded, sandbox): local-only pages and the Test mode banner", () => {
  // A proxy on this machine relaying a request from elsewhere appends that client's address.
  const relayed = { "x-forwarded-for": "203.0.113.9" };

  it("GET /sandbox/mailbox answers a loopback client and is 404 for a relayed one", async () => {
    const local = await fetch(`${server.url}/sandbox/mailbox`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain("Mailbox");
    expect((await fetch(`${server.url}/sandbox/mailbox`, { headers: relayed })).status).toBe(404);
  });

  it("the one-click demo sign-in works for a loopback client only, and is offered only to it", async () => {
    expect(await demoSignIn()).toMatch(/^next-auth\.session-token=/);
    expect(await demoSignIn(relayed)).toBeNull();
    expect(await (await fetch(`${server.url}/signin`)).text()).toContain("Continue as the demo organization");
    expect(await (await fetch(`${server.url}/signin`, { headers: relayed })).text()).not.toContain("Continue as the demo organization");
  });

  it("every page carries the Test mode banner", async () => {
    const session = await demoSignIn();
    const pages = ["/", "/docs", "/signin", "/o/demo/donate/winter-meals", "/o/demo/donate/winter-meals/thank-you", "/sandbox/mailbox", "/dashboard/demo", "/no-such-page"];
    for (const page of pages) {
      // Signed in for the dashboard only (the sign-in page sends a signed-in visitor on).
      const headers: Record<string, string> = page.startsWith("/dashboard") ? { cookie: session ?? "" } : {};
      const res = await fetch(`${server.url}${page}`, { headers, redirect: "manual" });
      expect(res.status, page).toBe(page === "/no-such-page" ? 404 : 200);
      const html = (await res.text()).replace(/<!-- -->/g, "");
      expect(html, page).toContain('aria-label="Test mode"');
      expect(html, page).toContain("no real payments are taken");
    }
  });
});
