/**
 * Language selection for an organization's public pages and the donor's own records: the proxy
 * chooses `?lang=`, else `Accept-Language`, else the organization's `defaultLocale`, and tells
 * the page (whose `<html lang>` follows); donations and sign-in requests remember the language.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { createElement } from "react";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { donations } from "@/db/schema";
import { clearHostCache } from "@/lib/hosted-urls/custom-domains";
import { LANG_PARAM_HEADER, LOCALE_HEADER } from "@/lib/i18n/locales";
import { clearOrgLocaleCache } from "@/lib/i18n/org-default";
import { proxy } from "@/proxy";
import { get, patch, post, type TestUser } from "../helpers/api";
import { verifyCustomDomain } from "../helpers/custom-domains";
import { testDb } from "../helpers/db";
import { activeCampaign, activeOrg, randomEmail, startDonation, type Campaign, type Org } from "../helpers/records";

// The root layout reads the request's headers; here they are the ones each test sets.
let requestHeaders = new Headers();
vi.mock("next/headers", async (original) => ({
  ...(await original<typeof import("next/headers")>()),
  headers: async () => requestHeaders,
}));

let owner: TestUser;
let org: Org;
let campaign: Campaign;
let domain: string;

/** The language header the proxy hands the page for `url` (null: none), and the `?lang=` one. */
async function chosen(url: string, headers: Record<string, string> = {}) {
  await testDb();
  const u = new URL(url);
  const h = new Headers(headers);
  h.set("host", u.host);
  const res = await proxy(new NextRequest(u, { headers: h }));
  return {
    locale: res.headers.get(`x-middleware-request-${LOCALE_HEADER}`),
    langParam: res.headers.get(`x-middleware-request-${LANG_PARAM_HEADER}`),
  };
}

beforeAll(async () => {
  domain = `give-${randomBytes(4).toString("hex")}.example.org`;
  ({ owner, org } = await activeOrg({ customDomain: domain }));
  org = (await verifyCustomDomain(org, owner.token)) as typeof org;
  campaign = await activeCampaign(org, owner);
});

beforeEach(() => {
  clearHostCache();
  clearOrgLocaleCache();
});

const donatePage = () => `http://localhost:3000/o/${org.slug}/donate/${campaign.slug}`;

describe("the language of a public page", () => {
  it("is ?lang= first, and links are told to carry it on", async () => {
    expect(await chosen(`${donatePage()}?lang=de`, { "accept-language": "es" })).toEqual({ locale: "de", langParam: "de" });
    expect(await chosen(`http://localhost:3000/o/${org.slug}/account?lang=fr`)).toEqual({ locale: "fr", langParam: "fr" });
  });

  it("is the browser's Accept-Language when ?lang= is absent or names no language we have", async () => {
    expect(await chosen(donatePage(), { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" })).toEqual({ locale: "fr", langParam: null });
    expect(await chosen(`${donatePage()}?lang=klingon`, { "accept-language": "ja,es;q=0.3" })).toEqual({
      locale: "es",
      langParam: null,
    });
    expect((await chosen(`${donatePage()}/thank-you`, { "accept-language": "de-AT" })).locale).toBe("de");
  });

  it("is the organization's defaultLocale when the browser names none of ours, and follows its change at once", async () => {
    expect((await chosen(donatePage(), { "accept-language": "ja" })).locale).toBe("en");
    const res = await patch(`/api/orgs/${org.id}`, { defaultLocale: "es" }, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.defaultLocale).toBe("es");
    expect((await chosen(donatePage(), { "accept-language": "ja" })).locale).toBe("es");
    expect((await chosen(donatePage())).locale).toBe("es");
    await patch(`/api/orgs/${org.id}`, { defaultLocale: "en" }, { token: owner.token });
  });

  it("works the same on the organization's custom domain", async () => {
    expect(await chosen(`https://${domain}/donate/${campaign.slug}`, { "accept-language": "de" })).toEqual({
      locale: "de",
      langParam: null,
    });
    expect((await chosen(`https://${domain}/account/sign-in?lang=es`)).locale).toBe("es");
  });

  it("is not chosen for the dashboard or the API, and a client cannot set it itself", async () => {
    const forged = { [LOCALE_HEADER]: "de", [LANG_PARAM_HEADER]: "de", "accept-language": "fr" };
    expect(await chosen("http://localhost:3000/dashboard", forged)).toEqual({ locale: null, langParam: null });
    expect(await chosen("http://localhost:3000/api/orgs", forged)).toEqual({ locale: null, langParam: null });
  });

  it("is what <html lang> says", async () => {
    const { default: RootLayout } = await import("@/app/layout");
    const { prerender } = await import("react-dom/static");
    // The layout holds async server components (the translated Test-mode banner): rendered to the end.
    const renderToStaticMarkup = async (element: React.ReactNode) => new Response((await prerender(element)).prelude).text();
    for (const locale of ["es", "fr", "de"]) {
      requestHeaders = new Headers({ [LOCALE_HEADER]: locale });
      expect(await renderToStaticMarkup(await RootLayout({ children: createElement("p") }))).toContain(`<html lang="${locale}">`);
    }
    // The dashboard (no language chosen) and anything forged that is not a language: English.
    for (const value of [null, "xx", "<script>"]) {
      requestHeaders = new Headers(value ? { [LOCALE_HEADER]: value } : {});
      expect(await renderToStaticMarkup(await RootLayout({ children: createElement("p") }))).toContain('<html lang="en">');
    }
  });
});

describe("an organization's default language", () => {
  it("is English unless set, is one of en, es, fr, de, and anything else is refused on the field", async () => {
    const res = await get(`/api/orgs/${org.id}`, { token: owner.token });
    expect(res.body.defaultLocale).toBe("en");
    for (const bad of ["it", "ES", "", null, 3]) {
      const r = await patch(`/api/orgs/${org.id}`, { defaultLocale: bad }, { token: owner.token });
      expect(r.status, `${JSON.stringify(bad)}: ${r.text}`).toBe(400);
      expect(r.body.details?.fieldErrors?.defaultLocale, JSON.stringify(bad)).toBeTruthy();
    }
    const created = await post("/api/orgs", { name: "Fondation Lumière", defaultLocale: "fr" }, { token: owner.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body.defaultLocale).toBe("fr");
  });
});

describe("the language a donation remembers", () => {
  async function localeOf(donationId: string) {
    const db = await testDb();
    const [row] = await db.select({ locale: donations.locale }).from(donations).where(eq(donations.id, donationId));
    return row.locale;
  }

  it("is the body's locale, else Accept-Language, else the organization's default", async () => {
    expect(await localeOf((await startDonation(campaign.id, { locale: "fr" })).id)).toBe("fr");

    const startIn = async (acceptLanguage: string) => {
      const res = await post(
        "/api/donations",
        { campaignId: campaign.id, amount: 2500, email: randomEmail() },
        { headers: { "accept-language": acceptLanguage } },
      );
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    expect(await localeOf(await startIn("de-DE,de;q=0.9"))).toBe("de");

    await patch(`/api/orgs/${org.id}`, { defaultLocale: "es" }, { token: owner.token });
    expect(await localeOf(await startIn("ja"))).toBe("es");
    await patch(`/api/orgs/${org.id}`, { defaultLocale: "en" }, { token: owner.token });
  });

  it("must be one of ours when given", async () => {
    for (const bad of ["it", "EN", 1, ""]) {
      const res = await post("/api/donations", { campaignId: campaign.id, amount: 2500, email: randomEmail(), locale: bad });
      expect(res.status, res.text).toBe(400);
      expect(res.body.details?.fieldErrors?.locale, JSON.stringify(bad)).toBeTruthy();
    }
  });
});
