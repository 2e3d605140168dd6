/**
 * Custom domains are served only once verified (contract section 20): PATCH /api/orgs/:idOrSlug
 * with a customDomain answers it PENDING with the TXT record to add; POST
 * /api/orgs/:idOrSlug/custom-domain/verify asks the DNS (a local DNS server here, named by
 * DNS_RESOLVERS) and answers VERIFIED, or 409 saying what is wrong. Until then the domain serves
 * nothing and `donateBaseUrl` stays on the app's host. Several organizations may claim a domain;
 * only the one whose record is in the DNS can verify it, and only one can have it VERIFIED.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, organizations } from "@/db/schema";
import { clearHostCache, hostCacheStats, orgSlugForHost } from "@/lib/hosted-urls/custom-domains";
import { newId } from "@/lib/ids";
import { proxy } from "@/proxy";
import { get, newCampaign, newOrg, patch, post, randomIp, type TestUser } from "../helpers/api";
import { testDns, verifyCustomDomain } from "../helpers/custom-domains";
import { testDb } from "../helpers/db";
import type { DnsServer } from "../helpers/dns-server";

const APP = "http://localhost:3000";
const domain = () => `give-${randomBytes(4).toString("hex")}.example.org`;

/** The path Next.js serves for a page request on `host` after proxy.ts (its rewrite, or the path as sent). */
async function servedOn(host: string, pathname = "/"): Promise<string> {
  await testDb();
  const url = new URL(`https://${host}${pathname}`);
  const res = await proxy(new NextRequest(url, { headers: { host } }));
  const rewrite = res.headers.get("x-middleware-rewrite");
  return rewrite ? new URL(rewrite).pathname : pathname;
}

const verify = (orgId: string, token: string) => post(`/api/orgs/${orgId}/custom-domain/verify`, undefined, { token });

let dns: DnsServer;
beforeAll(async () => {
  dns = await testDns();
});
beforeEach(() => clearHostCache());

/** An organization that has just claimed a fresh domain (PENDING). */
async function claimed(owner?: TestUser) {
  const host = domain();
  const { owner: o, org } = await newOrg(owner);
  const res = await patch(`/api/orgs/${org.id}`, { customDomain: host }, { token: o.token });
  expect(res.status, res.text).toBe(200);
  return { owner: o, org: res.body as Record<string, any>, host };
}

describe("PATCH /api/orgs/:idOrSlug with a customDomain", () => {
  it("answers it PENDING with the TXT record to add, and serves nothing there yet", async () => {
    const { owner, org, host } = await claimed();
    expect(org).toMatchObject({
      customDomain: host,
      customDomainStatus: "PENDING",
      customDomainVerification: {
        type: "TXT",
        name: `_goodfund.${host}`,
        value: expect.stringMatching(/^goodfund-verification=[0-9a-f]{32}$/),
      },
      donateBaseUrl: `${APP}/o/${org.slug}`,
    });
    // The host is nobody's: the app's own pages answer there, never the organization's.
    expect(await servedOn(host, "/")).toBe("/");
    expect(await servedOn(host, "/dashboard")).toBe("/dashboard");
    // The public API's links stay on the app's host too.
    const campaign = await newCampaign(org as { id: string }, owner.token, { status: "ACTIVE" });
    const pub = await get(`/api/public/orgs/${org.slug}/campaigns/${campaign.slug}`);
    expect(pub.body.campaign.donateUrl).toBe(`${APP}/o/${org.slug}/donate/${campaign.slug}`);
    // GET answers the same (members see the record to add).
    expect((await get(`/api/orgs/${org.id}`, { token: owner.token })).body.customDomainVerification).toEqual(org.customDomainVerification);
  });

  it("gives each claim its own record value; setting the same domain again keeps it, a new domain starts over", async () => {
    const { owner, org, host } = await claimed();
    const same = await patch(`/api/orgs/${org.id}`, { customDomain: host, name: "Renamed" }, { token: owner.token });
    expect(same.body.customDomainVerification).toEqual(org.customDomainVerification);
    const verified = await verifyCustomDomain(
      org as { id: string; customDomainVerification: { name: string; value: string } },
      owner.token,
    );
    expect(verified.customDomainStatus).toBe("VERIFIED");
    // Saving the form again with the same domain changes nothing.
    const again = await patch(`/api/orgs/${org.id}`, { customDomain: host }, { token: owner.token });
    expect(again.body.customDomainStatus).toBe("VERIFIED");

    const next = domain();
    const moved = await patch(`/api/orgs/${org.id}`, { customDomain: next }, { token: owner.token });
    expect(moved.body.customDomainStatus).toBe("PENDING");
    expect(moved.body.customDomainVerification.name).toBe(`_goodfund.${next}`);
    expect(moved.body.customDomainVerification.value).not.toBe(org.customDomainVerification.value);
    expect(moved.body.donateBaseUrl).toBe(`${APP}/o/${org.slug}`);
    // Neither the old domain (let go) nor the new one (not verified) is served.
    clearHostCache();
    expect(await servedOn(host)).toBe("/");
    expect(await servedOn(next)).toBe("/");
  });
});

describe("POST /api/orgs/:idOrSlug/custom-domain/verify", () => {
  it("answers 409 domain_not_verified naming the missing record, and keeps the domain PENDING", async () => {
    const { owner, org, host } = await claimed();
    const res = await verify(org.id, owner.token);
    expect(res.status, res.text).toBe(409);
    expect(res.body).toEqual({
      error: `No TXT record found at _goodfund.${host}: add the record shown, then verify again (DNS changes can take a while to appear)`,
      status: 409,
    });
    expect(dns.asked).toContain(`_goodfund.${host}`);
    // The name exists but holds no TXT record: the same answer.
    dns.setTxt(`_goodfund.${host}`, []);
    expect((await verify(org.id, owner.token)).body.error).toMatch(/^No TXT record found at /);
    const after = await get(`/api/orgs/${org.id}`, { token: owner.token });
    expect(after.body.customDomainStatus).toBe("PENDING");
    expect(await servedOn(host)).toBe("/");
  });

  it("answers 409 when the record holds another value, quoting what it found", async () => {
    const { owner, org, host } = await claimed();
    dns.setTxt(`_goodfund.${host}`, ["goodfund-verification=0000", "v=spf1 -all"]);
    const res = await verify(org.id, owner.token);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      `The TXT record at _goodfund.${host} does not hold the expected value (found "goodfund-verification=0000", "v=spf1 -all")`,
    );
    expect(await servedOn(host)).toBe("/");
  });

  it("answers 409 when the DNS lookup fails, naming the failure", async () => {
    const { owner, org, host } = await claimed();
    dns.fail(`_goodfund.${host}`, "SERVFAIL");
    const res = await verify(org.id, owner.token);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(`The DNS lookup of _goodfund.${host} failed (ESERVFAIL); try again in a few minutes`);
  });

  it("answers 409 for an organization without a custom domain", async () => {
    const { owner, org } = await newOrg();
    const res = await verify(org.id, owner.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "This organization has no custom domain to verify", status: 409 });
  });

  it("verifies a record holding the organization's value (among others): VERIFIED, served, in donateBaseUrl, audited", async () => {
    const { owner, org, host } = await claimed();
    const campaign = await newCampaign(org as { id: string }, owner.token, { status: "ACTIVE" });
    dns.setTxt(`_goodfund.${host}`, ["some-other-service=1", org.customDomainVerification.value]);
    const requestId = `req-verify-${randomBytes(4).toString("hex")}`;
    const ip = randomIp();
    const res = await post(`/api/orgs/${org.id}/custom-domain/verify`, undefined, {
      token: owner.token,
      ip,
      headers: { "X-Request-Id": requestId },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: org.id,
      customDomain: host,
      customDomainStatus: "VERIFIED",
      customDomainVerification: org.customDomainVerification,
      donateBaseUrl: `https://${host}`,
    });
    expect(await servedOn(host, "/")).toBe(`/o/${org.slug}`);
    expect(await servedOn(host, `/donate/${campaign.slug}`)).toBe(`/o/${org.slug}/donate/${campaign.slug}`);
    expect(await servedOn(host, "/dashboard")).toBe("/__goodfund/not-found");
    const pub = await get(`/api/public/orgs/${org.slug}/campaigns/${campaign.slug}`);
    expect(pub.body.campaign.donateUrl).toBe(`https://${host}/donate/${campaign.slug}`);

    const db = await testDb();
    const entries = await db.select().from(auditLog).where(eq(auditLog.requestId, requestId));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      orgId: org.id,
      action: "organization.custom_domain_verified",
      actorType: "user",
      targetType: "organization",
      targetId: org.id,
      data: { customDomain: host },
      clientIp: ip,
    });

    // Verifying again answers the same, without asking the DNS or writing another entry.
    dns.remove(`_goodfund.${host}`);
    const again = await post(`/api/orgs/${org.id}/custom-domain/verify`, undefined, {
      token: owner.token,
      headers: { "X-Request-Id": requestId },
    });
    expect(again.status).toBe(200);
    expect(again.body.customDomainStatus).toBe("VERIFIED");
    expect(await db.select().from(auditLog).where(eq(auditLog.requestId, requestId))).toHaveLength(1);
  });

  it("lets two organizations claim one domain; only the one whose value is in the DNS verifies it", async () => {
    const host = domain();
    const charity = await newOrg();
    const squatter = await newOrg();
    const mine = await patch(`/api/orgs/${charity.org.id}`, { customDomain: host }, { token: charity.owner.token });
    const theirs = await patch(`/api/orgs/${squatter.org.id}`, { customDomain: host }, { token: squatter.owner.token });
    expect(mine.status, mine.text).toBe(200);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.body.customDomainStatus).toBe("PENDING");
    expect(theirs.body.customDomainVerification.value).not.toBe(mine.body.customDomainVerification.value);

    // The charity controls the DNS: its record holds its own value.
    dns.setTxt(`_goodfund.${host}`, [mine.body.customDomainVerification.value]);
    const refused = await verify(squatter.org.id, squatter.owner.token);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/does not hold the expected value/);
    expect((await verify(charity.org.id, charity.owner.token)).status).toBe(200);
    expect(await servedOn(host)).toBe(`/o/${charity.org.slug}`);

    // Even a record holding both values verifies only one organization.
    dns.setTxt(`_goodfund.${host}`, [mine.body.customDomainVerification.value, theirs.body.customDomainVerification.value]);
    const second = await verify(squatter.org.id, squatter.owner.token);
    expect(second.status).toBe(409);
    expect(second.body.error).toBe("Another organization already uses this custom domain");
    expect((await get(`/api/orgs/${squatter.org.id}`, { token: squatter.owner.token })).body.customDomainStatus).toBe("PENDING");
    expect(await servedOn(host)).toBe(`/o/${charity.org.slug}`);
  });

  it("verifies once when two requests race", async () => {
    const { owner, org, host } = await claimed();
    dns.setTxt(`_goodfund.${host}`, [org.customDomainVerification.value]);
    const requestId = `req-race-${randomBytes(4).toString("hex")}`;
    const results = await Promise.all(
      [0, 1, 2].map(() =>
        post(`/api/orgs/${org.id}/custom-domain/verify`, undefined, { token: owner.token, headers: { "X-Request-Id": requestId } }),
      ),
    );
    for (const r of results) {
      expect(r.status, r.text).toBe(200);
      expect(r.body.customDomainStatus).toBe("VERIFIED");
    }
    const db = await testDb();
    expect(await db.select().from(auditLog).where(eq(auditLog.requestId, requestId))).toHaveLength(1);
  });
});

describe("the host cache under a flood of made-up Host headers", () => {
  it("pushes out only unknown hosts: a real domain's answer is never evicted, however many random hosts come", async () => {
    const { owner, org, host } = await claimed();
    await verifyCustomDomain(org as { id: string }, owner.token);
    expect(await servedOn(host)).toBe(`/o/${org.slug}`);
    const before = hostCacheStats();
    expect(before.known.size).toBeGreaterThanOrEqual(1);

    const appHost = new URL(APP).hostname;
    // More unknown hosts than the old cache held before it dropped everything (5 000), many at a time.
    for (let batch = 0; batch < 60; batch++) {
      const hosts = Array.from({ length: 100 }, () => `x${randomBytes(5).toString("hex")}.example.net`);
      expect(await Promise.all(hosts.map((h) => orgSlugForHost(h, appHost)))).toEqual(hosts.map(() => null));
    }

    const after = hostCacheStats();
    // The flood churned the cache of unknown hosts, within its bound...
    expect(after.unknown!.size).toBeLessThanOrEqual(after.unknown!.max);
    expect(after.unknown!.evictions - before.unknown!.evictions).toBeGreaterThanOrEqual(6_000 - after.unknown!.max);
    // ...and pushed no organization's domain out of its own.
    expect(after.known.evictions).toBe(before.known.evictions);
    expect(await servedOn(host)).toBe(`/o/${org.slug}`);
  }, 180_000);
});

describe("the migration of existing custom domains", () => {
  it("marks a domain set before verification existed VERIFIED, so it keeps being served", async () => {
    const db = await testDb();
    const host = domain();
    const id = newId("org");
    const slug = `legacy-${randomBytes(4).toString("hex")}`;
    // An organization as the previous release left it: a domain, no status.
    await db.insert(organizations).values({ id, name: "Legacy Trust", slug, customDomain: host });
    // Found by name: migration numbers change when branches are merged.
    const folder = path.resolve(__dirname, "../../db/migrations");
    const file = readdirSync(folder).find((f) => f.endsWith("_verify_existing_custom_domains.sql"))!;
    const migration = readFileSync(path.join(folder, file), "utf8");
    await db.execute(sql.raw(migration));
    const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
    expect(row.customDomainStatus).toBe("VERIFIED");
    expect(row.customDomainToken).toMatch(/^goodfund-verification=[0-9a-f]{32}$/);
    expect(row.customDomainVerifiedAt).toBeInstanceOf(Date);
    expect(await servedOn(host)).toBe(`/o/${slug}`);
  });
});
