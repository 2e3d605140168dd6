import type { NextRequest } from "next/server";
import { getDb } from "@/db";
import { findOrganizationBySlug, startDonorSession } from "@/lib/auth/donor-session";
import { getEnv } from "@/lib/env";
import { withLang } from "@/lib/i18n/href";
import { isLocale } from "@/lib/i18n/locales";
import { servedCustomDomain } from "@/lib/schemas/organizations";
import { isAllowedCookieRequest } from "@/lib/security/same-origin";
import { consumeDonorSignInLink } from "@/lib/services/donor-accounts/consume-sign-in-link";

type Context = { params: Promise<{ orgSlug: string }> };

/**
 * Where these redirects go, relative to this route's own address, so the browser stays on the
 * host it signed in on (the app's `/o/{orgSlug}/account/...`, or `/account/...` on the
 * organization's custom domain), which is the host the cookie belongs to.
 */
const ACCOUNT = "../../account";
const EXPIRED = "../sign-in?link=expired";

function redirect(location: string, cookie?: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (cookie) headers.set("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * POST /o/:orgSlug/account/sign-in/confirm: the sign-in page's "Continue to your account" button
 * (a form post, so a mail scanner that opens the emailed link never uses it up). Uses the link
 * once (lib/services/donor-accounts/consume-sign-in-link.ts), sets the organization's donor
 * cookie and goes to the account page (303); a used, expired or unknown link goes back to the
 * sign-in page, which says so and offers a new one. Only the organization's own pages may post
 * here (the same rule as cookie-authenticated API writes). A `?lang=` the sign-in page posted with
 * is carried on to the page it redirects to.
 */
export async function POST(req: NextRequest, { params }: Context): Promise<Response> {
  const { orgSlug } = await params;
  const lang = req.nextUrl.searchParams.get("lang");
  const langParam = isLocale(lang) ? lang : null;
  const db = await getDb();
  const org = await findOrganizationBySlug(db, orgSlug);
  if (!org) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const domain = servedCustomDomain(org);
  const ownPage =
    isAllowedCookieRequest(req, new URL(getEnv().appUrl).origin) || (domain !== null && isAllowedCookieRequest(req, `https://${domain}`));
  if (!ownPage) return new Response("Forbidden", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });

  let token = "";
  try {
    const form = await req.formData();
    const value = form.get("token");
    token = typeof value === "string" ? value : "";
  } catch {
    token = "";
  }
  const donor = await consumeDonorSignInLink(db, org, token);
  if (!donor) return redirect(withLang(EXPIRED, langParam));
  return redirect(withLang(ACCOUNT, langParam), await startDonorSession(db, donor.id, org.id));
}
