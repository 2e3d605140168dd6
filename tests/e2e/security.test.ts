import http from "node:http";
import { describe, expect, it } from "vitest";
import { startServer } from "../helpers/server";
import { startEmbeddedServerForFile } from "../helpers/embedded-server";
import { startInsideWindow } from "../helpers/rate-window";

// Security headers and the client address as the real server (server/main.ts, production
// build) delivers them over a real socket.
const app = startEmbeddedServerForFile("goodfund-e2e-security-");

const DONATE_PAGE = "/o/demo/donate/winter-meals";

/** A GET from a chosen local address (127.0.0.2 is loopback too on Linux), with its response headers. */
function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { localAddress, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.headers));
    });
    req.on("error", reject);
  });
}

describe("security headers (plain-http APP_URL)", () => {
  it("an HTML page carries a nonce-based CSP, frame-ancestors 'none', X-Frame-Options DENY, nosniff and the referrer policy, and no HSTS", async () => {
    for (const page of [DONATE_PAGE, "/", "/signin", "/no-such-page"]) {
      const res = await fetch(`${app.server.url}${page}`);
      expect(res.headers.get("content-type"), page).toMatch(/^text\/html/);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, page).toMatch(
        /(^|; )script-src 'self' 'nonce-[A-Za-z0-9+/=]+' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com https:\/\/challenges\.cloudflare\.com(;|$)/,
      );
      expect(csp, page).toContain("frame-ancestors 'none'");
      expect(csp, page).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
      expect(csp, page).toContain("connect-src 'self' https://api.stripe.com");
      expect(csp, page).not.toContain("unsafe-eval");
      expect(csp, page).not.toContain("upgrade-insecure-requests");
      expect(res.headers.get("x-frame-options"), page).toBe("DENY");
      expect(res.headers.get("x-content-type-options"), page).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), page).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security"), page).toBeNull();
      // The nonce is fresh for every response and is the one on the page's scripts.
      const nonce = /'nonce-([^']+)'/.exec(csp)![1];
      const html = await res.text();
      expect(html, page).toContain(`nonce="${nonce}"`);
    }
    const one = await fetch(`${app.server.url}${DONATE_PAGE}`);
    const two = await fetch(`${app.server.url}${DONATE_PAGE}`);
    expect(one.headers.get("content-security-policy")).not.toBe(two.headers.get("content-security-policy"));
  });

  it("API responses carry nosniff, the referrer policy, X-Frame-Options DENY and a CSP that loads nothing, errors included", async () => {
    for (const [url, status] of [
      ["/api/openapi.json", 200],
      ["/api/orgs", 401],
      ["/api/public/orgs/demo/campaigns/winter-meals", 200],
    ] as const) {
      const res = await fetch(`${app.server.url}${url}`);
      expect(res.status, url).toBe(status);
      expect(res.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), url).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("x-frame-options"), url).toBe("DENY");
      expect(res.headers.get("content-security-policy"), url).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("strict-transport-security"), url).toBeNull();
    }
    // Anything else the server sends (here an unknown API path) still gets nosniff.
    const unknown = await fetch(`${app.server.url}/api/does-not-exist`);
    expect(unknown.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("static files carry nosniff", async () => {
    const html = await (await fetch(`${app.server.url}${DONATE_PAGE}`)).text();
    // The donate page's stylesheet: a file of the build (the page loads no framework script).
    const stylesheet = /href="(\/_next\/static\/[^"]+\.css)"/.exec(html)![1];
    const res = await fetch(`${app.server.url}${stylesheet}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("client address from the real socket", () => {
  it("counts each socket address on its own: the server's proof reaches the app", async () => {
    const url = `${app.server.url}/api/orgs`;
    await startInsideWindow(5_000);
    const a1 = await getFrom("127.0.0.2", url);
    const a2 = await getFrom("127.0.0.2", url);
    const b1 = await getFrom("127.0.0.3", url);
    expect(Number(a2["x-ratelimit-remaining"])).toBe(Number(a1["x-ratelimit-remaining"]) - 1);
    // Were the address unproven, both would count as one "unknown" client.
    expect(Number(b1["x-ratelimit-remaining"])).toBe(99);
  });

  it("ignores a client's own client-IP and proof headers", async () => {
    const url = `${app.server.url}/api/orgs`;
    const forged = (ip: string) => ({ "x-goodfund-client-ip": ip, "x-goodfund-client-ip-proof": "forged" });
    await startInsideWindow(5_000);
    const a = await getFrom("127.0.0.4", url, forged("198.51.100.1"));
    const b = await getFrom("127.0.0.4", url, forged("198.51.100.2"));
    expect(Number(a["x-ratelimit-remaining"])).toBe(99);
    expect(Number(b["x-ratelimit-remaining"])).toBe(98);
  });
});

describe("security headers (https APP_URL)", () => {
  it("adds HSTS and upgrade-insecure-requests to pages and API responses", async () => {
    await app.server.stop();
    app.server = await startServer({ ...app.env, APP_URL: "https://goodfund.example" });
    for (const url of [DONATE_PAGE, "/api/openapi.json", "/api/orgs"]) {
      const res = await fetch(`${app.server.url}${url}`);
      expect(res.headers.get("strict-transport-security"), url).toBe("max-age=63072000; includeSubDomains");
    }
    const page = await fetch(`${app.server.url}${DONATE_PAGE}`);
    expect(page.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  }, 120_000);
});
