import { getDb } from "@/db";
import { findOrgDefaultLocale } from "@/db/queries/hosted-urls";
import { processCache } from "@/lib/process-cache";
import { SLUG_PATTERN } from "@/lib/slug";

/**
 * An organization's `defaultLocale`, for proxy.ts when neither `?lang=` nor `Accept-Language`
 * names a language we have. Kept in this process for a short while (lib/process-cache.ts:
 * unknown slugs apart, so they can't push known ones out), so a page view costs no query; a
 * changed default takes effect within 30 seconds.
 */
const cache = processCache<string | null>("__goodfundOrgLocaleCache", {
  ttlMs: 30_000,
  max: 5_000,
  negative: { test: (locale) => locale === null, ttlMs: 10_000, max: 1_000 },
});

export async function orgDefaultLocale(orgSlug: string): Promise<string | null> {
  if (orgSlug.length > 100 || !SLUG_PATTERN.test(orgSlug)) return null;
  return cache.get(orgSlug, async () => findOrgDefaultLocale(await getDb(), orgSlug));
}

/** Forget an organization's cached default (after it changes), or every one. */
export function clearOrgLocaleCache(orgSlug?: string): void {
  cache.clear(orgSlug);
}
