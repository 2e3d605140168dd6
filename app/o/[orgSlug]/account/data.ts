import { cookies } from "next/headers";
import { cache } from "react";
import { getDb } from "@/db";
import type { Donor, Organization } from "@/db/schema";
import { donorCookieName, donorFromCookieValue, findOrganizationBySlug } from "@/lib/auth/donor-session";
import { SLUG_PATTERN } from "@/lib/slug";

/** The organization of an account page, or null; cached per request (layout, page and metadata share one query). */
export const loadAccountOrg = cache(async (orgSlug: string): Promise<Organization | null> => {
  if (orgSlug.length > 48 || !SLUG_PATTERN.test(orgSlug)) return null;
  return (await findOrganizationBySlug(await getDb(), orgSlug)) ?? null;
});

/** The donor this request's cookie signs in on `org` (never an erased one), or null. */
export const signedInDonor = cache(async (org: Organization): Promise<Donor | null> => {
  const value = (await cookies()).get(donorCookieName(org.id))?.value;
  return donorFromCookieValue(await getDb(), org, value);
});
