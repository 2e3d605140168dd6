import { getDb } from "@/db";
import { findOrgByVerifiedDomain, findShortUrlOrgs } from "@/db/queries/hosted-urls";
import { processCache } from "@/lib/process-cache";
import { donateBaseUrl } from "@/lib/schemas/organizations";

/**
 * Which organization a request's `Host` belongs to, for proxy.ts. An organization's VERIFIED
 * `customDomain` serves its public pages. Answers are kept in this process so a page view costs
 * no query: an organization's domain for 30 seconds in an LRU of 10 000, "nobody's" for 10
 * seconds in a separate LRU of 2 000, so a flood of made-up `Host` headers (each one query) never
 * pushes real domains out. A changed domain takes effect in other processes within 30 seconds.
 */
const cache = processCache<string | null>("__goodfundHostCache", {
  ttlMs: 30_000,
  max: 10_000,
  negative: { test: (slug) => slug === null, ttlMs: 10_000, max: 2_000 },
});

// The shape a custom domain must have (lib/schemas/organizations.ts): a name with a dot and a
// letters-only top-level label. `localhost`, IP addresses and the like can never be one.
const DOMAIN_SHAPE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The host name of a `Host` header: lower case, without the port or a trailing dot. */
export function hostName(hostHeader: string | null): string | null {
  if (!hostHeader) return null;
  const h = hostHeader.trim().toLowerCase();
  // "[::1]:3000" (an IPv6 literal) or "name:port".
  const name = h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.split(":")[0];
  return name.replace(/\.$/, "") || null;
}

/** Whether `host` could be an organization's custom domain: not the app's own host, and shaped like a domain. */
export function mayBeCustomDomain(host: string | null, appHost: string): host is string {
  return host !== null && host !== appHost && DOMAIN_SHAPE.test(host);
}

/**
 * The slug of the organization whose VERIFIED custom domain `host` is, or null (the app's own
 * host, an unknown host, or a domain only claimed, PENDING verification).
 */
export async function orgSlugForHost(host: string | null, appHost: string): Promise<string | null> {
  if (!mayBeCustomDomain(host, appHost)) return null;
  return cache.get(host, async () => (await findOrgByVerifiedDomain(await getDb(), host))?.slug ?? null);
}

/** The host cache's fill and evictions: organizations' domains (`known`) and hosts that are nobody's (`unknown`). */
export function hostCacheStats() {
  return cache.stats();
}

/** Forget every cached answer (tests, after changing a domain). */
export function clearHostCache(): void {
  cache.clear();
}

/**
 * Where `{APP_URL}/donate/{slug}{rest}` goes: the donate page of the one organization with a
 * published campaign of that slug (on its custom domain, if it has a verified one), or null when no
 * organization or several have one.
 */
export async function shortUrlTarget(slug: string, rest: string): Promise<string | null> {
  const orgs = await findShortUrlOrgs(await getDb(), slug);
  if (orgs.length !== 1) return null;
  return `${donateBaseUrl(orgs[0])}/donate/${slug}${rest}`;
}
