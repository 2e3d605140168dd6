import { randomBytes } from "node:crypto";
import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearHostCache } from "@/lib/hosted-urls/custom-domains";
import { isFrameable } from "@/lib/security/frameable-routes";
import { config, proxy } from "@/proxy";
import { call, get, newCampaign, newOrg, newUser, patch, post, uniqueSlug, type TestUser } from "../helpers/api";
import { verifyCustomDomain } from "../helpers/custom-domains";
import { testDb } from "../helpers/db";

// Hosted URLs: requests run through proxy.ts as Next.js runs it before
// routing, and the API paths it lets through then through their real route handlers.

type Org = { id: string; slug: string } & Record<string, any>;

const APP = "http://localhost:3000";
const domain = () => `give-${randomBytes(4).toString("hex")}.example.org`;

async function through(url: string, init: { host?: string; method?: string; headers?: Record<string, string> } = {}) {
  await testDb();
  const u = new URL(url);
  const headers = new Headers(init.headers);
  headers.set("host", init.host ?? u.host);
  return proxy(new NextRequest(u, { method: init.method ?? "GET", headers }));
}

/** The path Next.js serves after the proxy: the rewrite target, or the path as sent. */
function servedPath(res: Response, sent: string): string {
  const rewrite = res.headers.get("x-middleware-rewrite");
  if (rewrite) return new URL(rewrite).pathname;
  expect(res.headers.get("x-middleware-next"), `neither served nor rewritten: ${res.status}`).toBe("1");
  return new URL(sent).pathname;
}

const NOT_FOUND_PAGE = "/__goodfund/not-found";

let owner: TestUser;
let org: Org;
let host: string;
let campaignSlug: string;

async function published(o: Org, token: string, body: Record<string, unknown> = {}) {
  const c = await newCampaign(o, token, body);
  const res = await patch(`/api/campaigns/${c.id}`, { status: "ACTIVE" }, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: string; slug: string };
}

beforeAll(async () => {
  host = domain();
  ({ owner, org } = await newOrg(undefined, { name: "Harbour Trust", customDomain: host.toUpperCase() }));
  expect(org.customDomain).toBe(host);
  // Served (and in donateBaseUrl) only once its DNS record is verified.
  expect(org.customDomainStatus).toBe("PENDING");
  expect(org.donateBaseUrl).toBe(`http://localhost:3000/o/${org.slug}`);
  org = (await verifyCustomDomain(org, owner.token)) as Org;
  expect(org.donateBaseUrl).toBe(`https://${host}`);
  campaignSlug = uniqueSlug("appeal");
  await published(org, owner.token, { slug: campaignSlug, title: "Harbour appeal" });
});

beforeEach(() => clearHostCache());

describe("an organization's custom domain", () => {
  it("serves the landing page at / and the donate pages at /donate/{slug}, with their steps", async () => {
    const cases: [string, string][] = [
      ["/", `/o/${org.slug}`],
      [`/donate/${campaignSlug}`, `/o/${org.slug}/donate/${campaignSlug}`],
      [`/donate/${campaignSlug}/thank-you`, `/o/${org.slug}/donate/${campaignSlug}/thank-you`],
      [`/donate/${campaignSlug}/pay`, `/o/${org.slug}/donate/${campaignSlug}/pay`],
      [`/donate/${campaignSlug}/embed`, `/o/${org.slug}/donate/${campaignSlug}/embed`],
      [`/donate/${campaignSlug}/embed/thank-you`, `/o/${org.slug}/donate/${campaignSlug}/embed/thank-you`],
      ["/account", `/o/${org.slug}/account`],
      ["/account/sign-in", `/o/${org.slug}/account/sign-in`],
      // The pages' own links use the full paths, which work on the domain too.
      [`/o/${org.slug}/donate/${campaignSlug}/thank-you`, `/o/${org.slug}/donate/${campaignSlug}/thank-you`],
    ];
    for (const [path, internal] of cases) {
      const res = await through(`https://${host}${path}?lang=es`);
      expect(servedPath(res, `https://${host}${path}`), path).toBe(internal);
      if (res.headers.get("x-middleware-rewrite")) expect(new URL(res.headers.get("x-middleware-rewrite")!).search).toBe("?lang=es");
      // Pages get the page headers of the path actually served.
      expect(res.headers.get("content-security-policy"), path).toContain("script-src 'self' 'nonce-");
      // And the page learns it is on a custom domain, whatever the client sent.
      expect(res.headers.get("x-middleware-request-x-goodfund-custom-domain"), path).toBe("1");
    }
  });

  it("is matched on Host without its port and whatever its case", async () => {
    const res = await through(`https://${host}/`, { host: `${host.toUpperCase()}:443` });
    expect(servedPath(res, `https://${host}/`)).toBe(`/o/${org.slug}`);
  });

  it("lets the embeddable form be framed, and only it", async () => {
    const embed = await through(`https://${host}/donate/${campaignSlug}/embed`);
    expect(embed.headers.get("content-security-policy")).not.toContain("frame-ancestors");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    expect(embed.headers.get("cache-control")).toBe("private, no-cache");
    expect(embed.headers.get("x-middleware-request-x-goodfund-embed")).toBe("1");
    const thanks = await through(`https://${host}/donate/${campaignSlug}/embed/thank-you?donation=x`);
    expect(thanks.headers.get("content-security-policy")).not.toContain("frame-ancestors");
    const page = await through(`https://${host}/donate/${campaignSlug}`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-middleware-request-x-goodfund-embed")).toBeNull();
    expect(isFrameable(`/o/${org.slug}/donate/${campaignSlug}/embed`)).toBe(true);
    expect(isFrameable(`/o/${org.slug}/donate/${campaignSlug}/thank-you`)).toBe(false);
    expect(isFrameable(`/o/${org.slug}`)).toBe(false);
  });

  it("refuses the dashboard, sign-in, the docs and anything else with a 404 page", async () => {
    for (const path of [
      "/dashboard",
      `/dashboard/${org.slug}`,
      "/signin",
      "/docs",
      "/docs/guides/errors",
      "/sandbox/mailbox",
      "/o/another-org",
      "/nope",
    ]) {
      const res = await through(`https://${host}${path}`);
      expect(servedPath(res, `https://${host}${path}`), path).toBe(NOT_FOUND_PAGE);
    }
    // A client can't pretend to be on a custom domain to a page of the app's host.
    const app = await through(`${APP}/o/${org.slug}`, { headers: { "x-goodfund-custom-domain": "1", "x-goodfund-embed": "1" } });
    expect(app.headers.get("x-middleware-request-x-goodfund-custom-domain")).toBeNull();
    expect(app.headers.get("x-middleware-request-x-goodfund-embed")).toBeNull();
  });

  it("refuses the authenticated API (404 in the API's shape, by withRoute's host step) and serves the public API the pages call", async () => {
    for (const [method, path] of [
      ["GET", `/api/orgs`],
      ["GET", `/api/orgs/${org.slug}`],
      ["GET", `/api/orgs/${org.id}/campaigns`],
      ["GET", "/api/auth/session"],
      ["GET", "/api/openapi.json"],
      ["GET", "/api/donations/don_x"],
      ["GET", "/api/public/orgs/someone-else/campaigns/x"],
      ["GET", "/api/donor/orgs/someone-else/donations"],
      ["POST", "/api/sandbox/accounts/acct_x/complete"],
      ["POST", "/api/sandbox/subscriptions/sub_x/renew"],
      ["POST", "/api/cron/worker"],
      ["POST", "/api/processor/webhooks"],
      // A method the route does not have: still the host's 404 first, not a 405.
      ["DELETE", "/api/orgs"],
      ["GET", "/api/no-such-route"],
    ]) {
      const res = await call(method, path, { headers: { host } });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, path).toEqual({ error: "Not found", status: 404 });
      expect(res.headers.get("x-request-id"), path).toBeTruthy();
      // API responses carry the API's own headers, not a page's.
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    // Pages never see the API: proxy.ts's matcher leaves /api to withRoute.
    expect(config.matcher.some((m) => new RegExp(`^${m}$`).test("/api/orgs"))).toBe(false);

    for (const [method, path] of [
      ["GET", `/api/public/orgs/${org.slug}/campaigns/${campaignSlug}`],
      ["POST", "/api/donations"],
      ["POST", "/api/sandbox/payments/confirm"],
      ["POST", "/api/sandbox/setup-intents/confirm"],
      ["POST", `/api/public/orgs/${org.slug}/donor-sessions`],
      ["DELETE", `/api/donor/orgs/${org.slug}/session`],
      ["GET", `/api/donor/orgs/${org.slug}/donations`],
    ]) {
      const res = await call(method, path, { headers: { host } });
      expect(res.body, `${method} ${path}`).not.toEqual({ error: "Not found", status: 404 });
    }
    for (const path of ["/_next/static/chunks/main.js", "/embed.js", "/covers/food-bank.jpg"]) {
      const res = await through(`https://${host}${path}`);
      expect(servedPath(res, `https://${host}${path}`), path).toBe(path);
    }
    const campaign = await get(`/api/public/orgs/${org.slug}/campaigns/${campaignSlug}`);
    expect(campaign.status).toBe(200);
    expect(campaign.body.campaign.donateUrl).toBe(`https://${host}/donate/${campaignSlug}`);
  });

  it("belongs to one organization once verified: another's claim is refused (409) until the first lets it go", async () => {
    const other = domain();
    const { owner: o2, org: claimed } = await newOrg(undefined, { customDomain: other });
    const second = await verifyCustomDomain(claimed, o2.token);
    expect(servedPath(await through(`https://${other}/`), `https://${other}/`)).toBe(`/o/${second.slug}`);

    const o3 = await newUser("Third Owner");
    const refused = await post("/api/orgs", { name: "Third Trust", customDomain: other.toUpperCase() }, { token: o3.token });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toBe("Another organization already uses this custom domain");
    const { org: third } = await newOrg(o3);
    const claim = await patch(`/api/orgs/${third.id}`, { customDomain: other }, { token: o3.token });
    expect(claim.status, claim.text).toBe(409);
    expect(claim.body.error).toBe("Another organization already uses this custom domain");
    // The refused claims changed nothing: the domain still serves the first organization.
    expect(servedPath(await through(`https://${other}/`), `https://${other}/`)).toBe(`/o/${second.slug}`);

    // Let go: the change is seen at once by this process (its cache is cleared), and the domain is free.
    const res = await patch(`/api/orgs/${second.id}`, { customDomain: null }, { token: o2.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ customDomain: null, customDomainStatus: null, customDomainVerification: null });
    expect(servedPath(await through(`https://${other}/`), `https://${other}/`)).toBe("/");
    const taken = await patch(`/api/orgs/${third.id}`, { customDomain: other }, { token: o3.token });
    expect(taken.status, taken.text).toBe(200);
    // Claimed, not yet proven: nothing is served there until the third organization verifies it.
    expect(servedPath(await through(`https://${other}/`), `https://${other}/`)).toBe("/");
    await verifyCustomDomain(taken.body, o3.token);
    expect(servedPath(await through(`https://${other}/`), `https://${other}/`)).toBe(`/o/${third.slug}`);
  });
});

describe("hosts that are nobody's custom domain", () => {
  it("behave as the app's host: the dashboard and the API are served as they are", async () => {
    for (const origin of [APP, "http://127.0.0.1:3000", "https://unknown-host.example.net"]) {
      for (const path of ["/", "/dashboard", "/signin", "/api/orgs", `/o/${org.slug}`]) {
        const res = await through(`${origin}${path}`);
        expect(servedPath(res, `${origin}${path}`), `${origin}${path}`).toBe(path);
        expect(res.headers.get("x-middleware-request-x-goodfund-custom-domain")).toBeNull();
      }
    }
    const page = await through(`${APP}/dashboard`);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
  });
});

describe("the short URL {APP_URL}/donate/{slug}", () => {
  it("redirects (308) to the one organization with that published campaign, keeping the step and the query", async () => {
    const { owner: o, org: plain } = await newOrg(undefined, { name: "Plain Org" });
    const slug = uniqueSlug("short");
    await published(plain, o.token, { slug });
    const res = await through(`${APP}/donate/${slug}?utm_source=mail`);
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(`${APP}/o/${plain.slug}/donate/${slug}?utm_source=mail`);
    const thanks = await through(`${APP}/donate/${slug}/embed`);
    expect(thanks.status).toBe(308);
    expect(thanks.headers.get("location")).toBe(`${APP}/o/${plain.slug}/donate/${slug}/embed`);
    const pay = await through(`${APP}/donate/${slug}/pay?donation=x`);
    expect(pay.status).toBe(308);
    expect(pay.headers.get("location")).toBe(`${APP}/o/${plain.slug}/donate/${slug}/pay?donation=x`);
  });

  it("redirects to the organization's custom domain when it has one", async () => {
    const res = await through(`${APP}/donate/${campaignSlug}`);
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe(`https://${host}/donate/${campaignSlug}`);
  });

  it("answers 404 when no organization has a published campaign of that slug", async () => {
    const slug = uniqueSlug("none");
    const res = await through(`${APP}/donate/${slug}`);
    expect(servedPath(res, `${APP}/donate/${slug}`)).toBe(NOT_FOUND_PAGE);
    // Not a slug at all, or a step that does not exist.
    expect(servedPath(await through(`${APP}/donate/Not_A_Slug`), APP)).toBe(NOT_FOUND_PAGE);
    expect(servedPath(await through(`${APP}/donate/${campaignSlug}/admin`), APP)).toBe(NOT_FOUND_PAGE);
  });

  it("answers 404 for a DRAFT campaign", async () => {
    const { owner: o, org: drafts } = await newOrg();
    const slug = uniqueSlug("draft");
    const draft = await newCampaign(drafts, o.token, { slug });
    expect(draft.status).toBe("DRAFT");
    expect(servedPath(await through(`${APP}/donate/${slug}`), APP)).toBe(NOT_FOUND_PAGE);
    // Once published, it resolves.
    await patch(`/api/campaigns/${draft.id}`, { status: "ACTIVE" }, { token: o.token });
    expect((await through(`${APP}/donate/${slug}`)).status).toBe(308);
  });

  it("answers 404 when two organizations have a published campaign of that slug", async () => {
    const slug = uniqueSlug("twice");
    const a = await newOrg();
    const b = await newOrg();
    await published(a.org, a.owner.token, { slug });
    expect((await through(`${APP}/donate/${slug}`)).status).toBe(308);
    await published(b.org, b.owner.token, { slug });
    const res = await through(`${APP}/donate/${slug}`);
    expect(res.status).not.toBe(308);
    expect(servedPath(res, `${APP}/donate/${slug}`)).toBe(NOT_FOUND_PAGE);
  });

  it("is not a short URL on a custom domain: there /donate/{slug} is the domain's own page", async () => {
    const res = await through(`https://${host}/donate/${uniqueSlug("elsewhere")}`);
    expect(res.status).not.toBe(308);
    expect(servedPath(res, `https://${host}/`)).toMatch(new RegExp(`^/o/${org.slug}/donate/`));
  });
});

describe("GET /embed.js", () => {
  it("is served with caching headers to any origin, and parses as plain ES2017", async () => {
    const { GET } = await import("@/app/embed.js/route");
    const res = GET();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const source = await res.text();
    const { parse } = await import("acorn");
    expect(() => parse(source, { ecmaVersion: 2017, sourceType: "script" })).not.toThrow();
    // Nothing the embedding site's CSP would have to allow beyond our script and frame.
    expect(source).not.toMatch(/\beval\(|new Function|createElement\("(style|script)"\)|innerHTML/);
    // Resize messages are taken only from a frame the script made, at its origin.
    expect(source).toContain("entry.frame.contentWindow !== event.source || entry.origin !== event.origin");
    // The proxy serves it on a custom domain too, without page headers.
    const proxied = await through(`https://${host}/embed.js`);
    expect(servedPath(proxied, `https://${host}/embed.js`)).toBe("/embed.js");
    expect(proxied.headers.get("content-security-policy")).toBeNull();
  });
});
