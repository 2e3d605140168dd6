import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { cliToken, startServer } from "../helpers/server";
import { rawRequest } from "../helpers/raw-request";
import { startEmbeddedServerForFile } from "../helpers/embedded-server";
import { startInsideWindow } from "../helpers/rate-window";
import { planDemoHistory } from "@/lib/demo/history-plan";

// `npm start` as a new user runs it: production build, embedded database, demo data, a token
// from `npm run token`, then the API over real HTTP on a real socket.
const app = startEmbeddedServerForFile("goodfund-e2e-");
// The seed's own clock lies between now and the server's first answer.
const beforeStart = new Date();

const json = (token?: string) => ({
  "content-type": "application/json",
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

describe("npm start (embedded)", () => {
  // First in the file: nothing else has given to the demo yet.
  it("has played the demo's whole history when it first answers: no campaign waits at $0", async () => {
    const token = cliToken("demo@goodfund.local", app.env);
    const ids = new Set<string>();
    for (let cursor: string | null = null; ;) {
      const page = await fetch(`${app.server.url}/api/orgs/demo/donations?limit=100${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: json(token),
      });
      expect(page.status).toBe(200);
      const body = (await page.json()) as { data: { id: string }[]; pagination: { nextCursor: string | null } };
      for (const d of body.data) ids.add(d.id);
      cursor = body.pagination.nextCursor;
      if (!cursor) break;
    }
    const planned = (now: Date) =>
      planDemoHistory(now, Number(app.env.DEMO_HISTORY_SCALE)).filter((s) => s.kind === "gift" || s.kind === "renewal").length;
    expect(ids.size).toBeGreaterThan(0);
    expect([planned(beforeStart), planned(new Date())]).toContain(ids.size);
    // It says it is ready once the start-up is done, and nothing ran on a database not yet made.
    await expect.poll(() => app.server.output(), { timeout: 15_000 }).toContain("Goodfund is ready on");
    const output = app.server.output();
    expect(output).toContain("playing the demo's year of gifts");
    expect(output.indexOf("Goodfund is ready on")).toBeGreaterThan(output.indexOf("playing the demo's year of gifts"));
    expect(output).not.toMatch(/"level":"error"/);
  });

  it("serves the landing page that links to the API reference", async () => {
    const res = await fetch(app.server.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Goodfund");
    expect(html).toContain("/api/openapi.json");
    expect(html).toContain('href="/docs"');
    // The API example names this server's own address and port.
    expect(html).toContain(`http://localhost:${app.server.port}/api/orgs`);
    expect(html).not.toContain("localhost:3000");
  });

  it("serves the build's scripts in Brotli to browsers that take it, the same bytes Next.js serves", async () => {
    // The organization's page loads the framework's scripts (the donate page loads none).
    const html = await (await fetch(`${app.server.url}/o/demo`)).text();
    const script = /\/_next\/static\/chunks\/[\w.-]+\.js/.exec(html)?.[0];
    expect(script).toBeDefined();
    const raw = (encoding: string) => rawRequest(app.server.url, script!, { headers: { "accept-encoding": encoding } });
    const plain = await raw("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    // The first request is compressed as it streams while the file is compressed once, at the
    // highest quality, off the main thread; later ones come from memory, with their length.
    let br = await raw("gzip, deflate, br");
    for (let i = 0; i < 100 && br.headers["content-length"] === undefined; i++) {
      expect(br.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
      br = await raw("gzip, deflate, br");
    }
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gzip = await raw("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(gzip.body.length);
  });

  it("compresses pages and API answers as they stream: Brotli when the browser takes it, else gzip, else none", async () => {
    for (const path of ["/o/demo/donate/winter-meals", "/docs", "/api/openapi.json"]) {
      const raw = (encoding?: string) =>
        rawRequest(app.server.url, path, { headers: encoding === undefined ? {} : { "accept-encoding": encoding } });
      const [br, gzip, plain, refused] = await Promise.all([
        raw("gzip, deflate, br, zstd"),
        raw("gzip, deflate"),
        raw(),
        raw("br;q=0, gzip"),
      ]);
      for (const res of [br, gzip, plain, refused]) {
        expect(res.status, path).toBe(200);
        expect(res.headers.vary, path).toMatch(/accept-encoding/i);
      }
      expect(br.headers["content-encoding"], path).toBe("br");
      expect(gzip.headers["content-encoding"], path).toBe("gzip");
      expect(refused.headers["content-encoding"], path).toBe("gzip");
      expect(plain.headers["content-encoding"], path).toBeUndefined();
      // Each decodes to the page (pages carry a per-response nonce, so they are compared by content).
      const texts = [brotliDecompressSync(br.body), gunzipSync(gzip.body), plain.body].map((b) => b.toString("utf8"));
      const marker = path.startsWith("/api") ? '"openapi"' : path === "/docs" ? "/api/openapi.json" : "Winter Meals Appeal";
      for (const text of texts) expect(text, path).toContain(marker);
      expect(br.body.length, path).toBeLessThan(gzip.body.length);
    }
  });

  it("a campaign's 404 leads donors to the organization's page, not the platform's", async () => {
    const res = await fetch(`${app.server.url}/o/demo/donate/no-such-campaign`);
    expect(res.status).toBe(404);
    const html = (await res.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("We can&#x27;t find this campaign");
    expect(html).toMatch(/<a [^>]*href="\/o\/demo"[^>]*>See the organization&#x27;s campaigns<\/a>/);
  });

  it("renders the API reference at /docs from the OpenAPI document, every operation indexed and described on its section's page", async () => {
    const res = await fetch(`${app.server.url}/docs`);
    expect(res.status).toBe(200);
    const index = (await res.text()).replace(/<!-- -->/g, "");
    const doc = await (await fetch(`${app.server.url}/api/openapi.json`)).json();
    const pages = new Map<string, string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string }>>)) {
      expect(index, path).toContain(path);
      for (const op of Object.values(item)) {
        const anchor = op.operationId.replace(/[^a-zA-Z0-9]+/g, "-").toLowerCase();
        // The index links the operation to its section's page, which carries its anchor.
        const link = new RegExp(`href="(/docs/[a-z0-9-]+)#${anchor}"`).exec(index);
        expect(link, op.operationId).not.toBeNull();
        const section = link![1];
        if (!pages.has(section)) {
          const page = await fetch(`${app.server.url}${section}`);
          expect(page.status, section).toBe(200);
          pages.set(section, (await page.text()).replace(/<!-- -->/g, ""));
        }
        expect(pages.get(section), op.operationId).toContain(`id="${anchor}"`);
      }
    }
  });

  it("seeds the demo organization, reachable with a token from npm run token", async () => {
    const token = cliToken("demo@goodfund.local", app.env);
    const res = await fetch(`${app.server.url}/api/orgs`, { headers: json(token) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.map((o: { slug: string }) => o.slug)).toEqual(["demo"]);
    const campaigns = await (await fetch(`${app.server.url}/api/orgs/demo/campaigns`, { headers: json(token) })).json();
    expect(campaigns.data.length).toBeGreaterThanOrEqual(5);
  });

  it("lets a new user create an organization and campaigns and lists them newest first", async () => {
    const token = cliToken("ada@example.org", app.env);
    const org = await fetch(`${app.server.url}/api/orgs`, {
      method: "POST",
      headers: json(token),
      body: JSON.stringify({ name: "Ada's Fund" }),
    });
    expect(org.status).toBe(201);
    const { slug } = await org.json();
    const ids: string[] = [];
    for (const title of ["First", "Second", "Third"]) {
      const res = await fetch(`${app.server.url}/api/orgs/${slug}/campaigns`, {
        method: "POST",
        headers: json(token),
        body: JSON.stringify({ title }),
      });
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const list = await (await fetch(`${app.server.url}/api/orgs/${slug}/campaigns`, { headers: json(token) })).json();
    expect(list.data.map((c: { id: string }) => c.id)).toEqual([...ids].reverse());
  });

  it("answers unknown API routes with the JSON error shape", async () => {
    const res = await fetch(`${app.server.url}/api/does-not-exist`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(await res.json()).toEqual({ error: "Not found", status: 404 });
  });

  it("limits public requests per socket address, ignoring X-Forwarded-For and spoofed client-IP headers", async () => {
    const url = `${app.server.url}/api/public/orgs/demo/campaigns/winter-meals`;
    // Limits count in fixed one-minute windows: start well inside one, so the loop can't straddle two.
    await startInsideWindow(20_000);
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
    const token = cliToken("ada@example.org", app.env);
    await app.server.stop();
    app.server = await startServer({ ...app.env, TRUST_PROXY: "1" });
    const orgs = await (await fetch(`${app.server.url}/api/orgs`, { headers: json(token) })).json();
    expect(orgs.data.map((o: { name: string }) => o.name)).toEqual(["Ada's Fund"]);
    const demo = await (await fetch(`${app.server.url}/api/orgs`, { headers: json(cliToken("demo@goodfund.local", app.env)) })).json();
    expect(demo.data).toHaveLength(1);

    const url = `${app.server.url}/api/public/orgs/demo/campaigns/winter-meals`;
    // The proxy appends the address it saw; anything left of that was sent by the client.
    await startInsideWindow(5_000);
    const a = await fetch(url, { headers: { "x-forwarded-for": "203.0.113.7, 10.0.0.1" } });
    const b = await fetch(url, { headers: { "x-forwarded-for": "203.0.113.8" } });
    const spoofed = await fetch(url, { headers: { "x-forwarded-for": "198.51.100.9, 10.0.0.1" } });
    expect(a.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(b.headers.get("x-ratelimit-remaining")).toBe("99");
    expect(spoofed.headers.get("x-ratelimit-remaining")).toBe("98");
  }, 120_000); // a stop and a start of the embedded server: slow on a busy machine

  it("answers POST /api/donations and the processor's webhook directly, as Next.js would", async () => {
    const {
      campaign: { id: campaignId },
    } = await (await fetch(`${app.server.url}/api/public/orgs/demo/campaigns/winter-meals`)).json();
    // The server now trusts the rightmost X-Forwarded-For entry (the test above): this test's own address, and its own limit.
    const headers = { "content-type": "application/json", "x-forwarded-for": "203.0.113.77" };
    // The same request straight (the exact path) and through Next.js (a query string makes it no direct route's).
    const both = async (path: string, body: string) => {
      const send = (url: string) => fetch(url, { method: "POST", headers, body });
      return { direct: await send(`${app.server.url}${path}`), next: await send(`${app.server.url}${path}?via=next`) };
    };
    const gift = (email: string) => JSON.stringify({ campaignId, amount: 2500, email, firstName: "Ada" });
    await startInsideWindow(5_000);
    const started = await both("/api/donations", gift(`direct-${Date.now()}@example.org`));
    // The fast path answers with a length, not a stream.
    expect(started.direct.headers.get("vary")).toBeNull();
    expect(started.direct.headers.get("content-length")).toMatch(/^\d+$/);
    for (const res of [started.direct, started.next]) {
      expect(res.status).toBe(201);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-request-id")).toBeTruthy();
    }
    const [a, b] = [await started.direct.json(), await started.next.json()];
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    expect(a).toMatchObject({ campaignId, amount: 2500, status: "PENDING", clientSecret: expect.any(String) });
    // Both count against the one limit of the client's address, which the route reads the same way in both.
    const remaining = Number(started.direct.headers.get("x-ratelimit-remaining"));
    expect(Number(started.next.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);

    for (const [path, body] of [
      ["/api/donations", "{nope"],
      ["/api/donations", JSON.stringify({ campaignId, amount: -5, email: "not-an-email" })],
      ["/api/processor/webhooks", JSON.stringify({ id: "evt_unsigned", type: "payment_intent.succeeded" })],
    ]) {
      const res = await both(path, body);
      expect(res.direct.status, body).toBe(res.next.status);
      expect(res.direct.status, body).toBeGreaterThanOrEqual(400);
      expect(await res.direct.text(), body).toBe(await res.next.text());
    }
  });
});

/** Signs in with the one-click demo provider as the sign-in page does; the session cookie, or null when refused. */
async function demoSignIn(headers: Record<string, string> = {}): Promise<string | null> {
  const csrf = await fetch(`${app.server.url}/api/auth/csrf`, { headers });
  const { csrfToken } = await csrf.json();
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${app.server.url}/api/auth/callback/demo`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded", origin: app.server.url },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/dashboard/demo", json: "true" }),
  });
  const session = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  return session ? session.split(";")[0] : null;
}

/** A GET on the server's own socket with the `Host` header a proxy would pass on (fetch always sends the URL's own). */
async function withHost(path: string, host: string): Promise<{ status: number; body: string }> {
  const res = await rawRequest(app.server.url, path, { headers: { host } });
  return { status: res.status, body: res.body.toString("utf8") };
}

describe("npm start (embedded, sandbox): local-only pages and the Test mode banner", () => {
  // A proxy on this machine relaying a request from elsewhere appends that client's address.
  const relayed = { "x-forwarded-for": "203.0.113.9" };

  it("GET /sandbox/mailbox answers a loopback client and is 404 for a relayed one", async () => {
    const local = await fetch(`${app.server.url}/sandbox/mailbox`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain("Mailbox");
    expect((await fetch(`${app.server.url}/sandbox/mailbox`, { headers: relayed })).status).toBe(404);
  });

  it("GET /sandbox/mailbox and the demo sign-in refuse a loopback connection asking for a public Host (a same-host proxy adding no headers)", async () => {
    const proxied = await withHost("/sandbox/mailbox", "give.example.org");
    expect(proxied.status).toBe(404);
    const signin = await withHost("/signin", "give.example.org");
    expect(signin.status).toBe(200);
    expect(signin.body).not.toContain("Continue as the demo organization");
    // The same connection asking for the machine's own name is the developer's browser.
    expect((await withHost("/sandbox/mailbox", `localhost:${new URL(app.server.url).port}`)).status).toBe(200);
  });

  it("the one-click demo sign-in works for a loopback client only, and is offered only to it", async () => {
    expect(await demoSignIn()).toMatch(/^next-auth\.session-token=/);
    expect(await demoSignIn(relayed)).toBeNull();
    expect(await (await fetch(`${app.server.url}/signin`)).text()).toContain("Continue as the demo organization");
    expect(await (await fetch(`${app.server.url}/signin`, { headers: relayed })).text()).not.toContain("Continue as the demo organization");
  });

  it("every page carries the Test mode banner", async () => {
    const session = await demoSignIn();
    const pages = [
      "/",
      "/docs",
      "/signin",
      "/o/demo/donate/winter-meals",
      "/o/demo/donate/winter-meals/thank-you",
      "/sandbox/mailbox",
      "/dashboard/demo",
      "/no-such-page",
    ];
    for (const page of pages) {
      // Signed in for the dashboard only (the sign-in page sends a signed-in visitor on).
      const headers: Record<string, string> = page.startsWith("/dashboard") ? { cookie: session ?? "" } : {};
      const res = await fetch(`${app.server.url}${page}`, { headers, redirect: "manual" });
      expect(res.status, page).toBe(page === "/no-such-page" ? 404 : 200);
      const html = (await res.text()).replace(/<!-- -->/g, "");
      expect(html, page).toContain('aria-label="Test mode"');
      expect(html, page).toContain("no real payments are taken");
    }
  });

  it("the Test mode banner speaks the donate page's language", async () => {
    for (const [lang, label, body] of [
      ["es", "Modo de prueba", "no se realizan pagos reales"],
      ["de", "Testmodus", "es werden keine echten Zahlungen ausgeführt"],
    ]) {
      const res = await fetch(`${app.server.url}/o/demo/donate/winter-meals?lang=${lang}`);
      expect(res.status).toBe(200);
      const html = (await res.text()).replace(/<!-- -->/g, "");
      expect(html).toContain(`aria-label="${label}"`);
      expect(html).toContain(body);
      expect(html).not.toContain("no real payments are taken");
    }
  });
});
