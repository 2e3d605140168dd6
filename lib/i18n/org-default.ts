import { getDb } from "@/db";
import { findOrgDefaultLocale } from "@/db/queries/hosted-urls";
import { SLUG_PATTERN } from "@/lib/schemas/common";

/**
 * An organization's `defaultLocale`, for proxy.ts when neither `?lang=` nor `Accept-Language`
 * names a language we have. Kept in this process for a short while (a hit and a miss alike), so
 * a page view costs no query; a changed default takes effect within `CACHE_MS`.
 */
const CACHE_MS = 30_000;
const CACHE_MAX = 5_000;

type Entry = { locale: string | null; expires: number };
// On globalThis: Next.js may load this module in more than one bundle of the same process.
const store = globalThis as unknown as { __goodfundOrgLocaleCache?: Map<string, Entry> };
const cache = (store.__goodfundOrgLocaleCache ??= new Map());

export async function orgDefaultLocale(orgSlug: string): Promise<string | null> {
  if (orgSlug.length > 100 || !SLUG_PATTERN.test(orgSlug)) return null;
  const now = Date.now();
  const hit = cache.get(orgSlug);
  if (hit && hit.expires > now) return hit.locale;
  const locale = await findOrgDefaultLocale(await getDb(), orgSlug);
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(orgSlug, { locale, expires: now + CACHE_MS });
  return locale;
}

/** Forget an organization's cached default (after it changes), or every one. */
export function clearOrgLocaleCache(orgSlug?: string): void {
  if (orgSlug) cache.delete(orgSlug);
  else cache.clear();
}
