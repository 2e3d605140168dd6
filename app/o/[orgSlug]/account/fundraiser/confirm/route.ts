import type { NextRequest } from "next/server";
import { getDb } from "@/db";
import { findOrganizationBySlug, startDonorSession } from "@/lib/auth/donor-session";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { withLang } from "@/lib/i18n/href";
import { isLocale } from "@/lib/i18n/locales";
import { servedCustomDomain } from "@/lib/schemas/organizations";
import { isAllowedCookieRequest } from "@/lib/security/same-origin";
import { confirmFundraiserPage } from "@/lib/services/fundraisers/start-fundraiser";

type Context = { params: Promise<{ orgSlug: string }> };

function redirect(location: string, cookie?: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  if (cookie) headers.set("Set-Cookie", cookie);
  return new Response(null, { status: 303, headers });
}

/**
 * POST /o/:orgSlug/account/fundraiser/confirm: the confirmation page's "Create my page" button.
 * Uses the sign-up link once (lib/services/fundraisers/start-fundraiser.ts), creates the page,
 * sets the organization's donor cookie and goes to the account page (303), where the supporter
 * edits and shares it. A used, expired or unknown link goes back to the confirmation page, which
 * says so. Only the organization's own pages may post here.
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
    const value = (await req.formData()).get("token");
    token = typeof value === "string" ? value : "";
  } catch {
    token = "";
  }
  let confirmed;
  try {
    confirmed = await confirmFundraiserPage(db, org, token);
  } catch (err) {
    if (err instanceof AppError && err.code === "supporter_pages_closed") return redirect(withLang("../fundraiser?closed=1", langParam));
    throw err;
  }
  if (!confirmed) return redirect(withLang("../fundraiser?link=expired", langParam));
  const cookie = await startDonorSession(db, confirmed.donorId, org.id);
  return redirect(withLang(`../../account?fundraiser=${confirmed.page.id}`, langParam), cookie);
}
