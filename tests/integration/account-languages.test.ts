/**
 * The donor account pages in Spanish, French and German (and still in English): the signed-in
 * overview with a one-time gift and a monthly plan, the signed-out page and the sign-in page, as
 * the server renders them in the language proxy.ts chose, with that language's texts, money and
 * dates; `?lang=` carried on by their links and by the sign-in confirm route's redirects.
 */
import { eq } from "drizzle-orm";
import { createElement, type ReactNode } from "react";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { donations } from "@/db/schema";
import { donorCookieName, startDonorSession } from "@/lib/auth/donor-session";
import { LANG_PARAM_HEADER, LOCALE_HEADER, type Locale } from "@/lib/i18n/locales";
import { patch, post, randomIp, type TestUser } from "../helpers/api";
import { queuedSignInEmails } from "../helpers/email";
import { testDb } from "../helpers/db";
import { activeCampaign, activeOrg, paidDonation, randomEmail, type Campaign, type Org } from "../helpers/records";

/** What proxy.ts would have set on the request, and the browser's cookies: the pages read them through next/headers. */
const request = { headers: new Headers(), cookies: new Map<string, string>() };

vi.mock("next/headers", async (original) => ({
  ...(await original<typeof import("next/headers")>()),
  headers: async () => request.headers,
  cookies: async () => ({
    get: (name: string) => (request.cookies.has(name) ? { name, value: request.cookies.get(name)! } : undefined),
  }),
}));

/** A request in `locale`, as proxy.ts sets it: from `?lang=` (carried on in links) or from Accept-Language (not). */
function asRequest(locale: Locale, opts: { viaParam?: boolean; cookie?: string } = {}) {
  request.headers = new Headers({ [LOCALE_HEADER]: locale, ...(opts.viaParam ? { [LANG_PARAM_HEADER]: locale } : {}) });
  request.cookies = new Map();
  if (opts.cookie) {
    const [pair] = opts.cookie.split(";");
    const at = pair.indexOf("=");
    request.cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** A page's HTML inside the account layout, as the server renders it for the current request (client components included). */
async function html(page: ReactNode, orgSlug: string): Promise<string> {
  const { prerenderToNodeStream } = await import("react-dom/static");
  const { AppRouterContext } = await import("next/dist/shared/lib/app-router-context.shared-runtime");
  const { default: OrgSiteLayout } = await import("@/app/o/[orgSlug]/layout");
  const { default: AccountLayout } = await import("@/app/o/[orgSlug]/account/layout");
  const params = Promise.resolve({ orgSlug });
  const framed = await AccountLayout({ children: page, params });
  const site = await OrgSiteLayout({ children: framed });
  const router = { refresh() {}, push() {}, replace() {}, back() {}, forward() {}, prefetch() {} };
  // Rendered to completion, as the server streams it (next/link waits on the router's state).
  const { prelude } = await prerenderToNodeStream(createElement(AppRouterContext.Provider, { value: router as never }, site));
  let out = "";
  for await (const chunk of prelude) out += String(chunk);
  return out;
}

async function accountPage(orgSlug: string): Promise<string> {
  const { default: AccountPage } = await import("@/app/o/[orgSlug]/account/page");
  return html(await AccountPage({ params: Promise.resolve({ orgSlug }) }), orgSlug);
}

async function signInPage(orgSlug: string, token: string): Promise<string> {
  const { default: SignInPage } = await import("@/app/o/[orgSlug]/account/sign-in/page");
  return html(await SignInPage({ params: Promise.resolve({ orgSlug }), searchParams: Promise.resolve({ token }) }), orgSlug);
}

async function titleOf(which: "account" | "sign-in", orgSlug: string): Promise<unknown> {
  const mod = which === "account" ? await import("@/app/o/[orgSlug]/account/page") : await import("@/app/o/[orgSlug]/account/sign-in/page");
  const meta = await mod.generateMetadata({ params: Promise.resolve({ orgSlug }), searchParams: Promise.resolve({}) });
  return (meta.title as { absolute: string }).absolute;
}

/** Text as the rendered HTML has it (React escapes quotes and ampersands). */
const escaped = (s: string) => s.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

/** The day a gift made now is shown as, written independently of the app's code. */
const today = (tag: string) => new Intl.DateTimeFormat(tag, { dateStyle: "long", timeZone: "UTC" }).format(new Date());

let owner: TestUser;
let org: Org;
let campaign: Campaign;
let cookie: string;
const email = randomEmail("lena");

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  const res = await patch(`/api/orgs/${org.id}`, { currency: "EUR", name: "Tafel Nord" }, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  org = res.body;
  campaign = await activeCampaign(org, owner, { title: "Wintermahlzeiten" });
  const once = await paidDonation(campaign.id, { email, amount: 2500, firstName: "Lena" });
  await paidDonation(campaign.id, { email, amount: 1000, recurringInterval: "MONTH", firstName: "Lena" });
  cookie = await startDonorSession(await testDb(), once.donorId, org.id);
  expect(cookie.startsWith(`${donorCookieName(org.id)}=`)).toBe(true);
});

/** Each language's words for the signed-in overview, its money and its dates. */
const OVERVIEW: Record<Exclude<Locale, "en">, { tag: string; texts: string[]; money: string[] }> = {
  es: {
    tag: "es",
    texts: [
      "Hola de nuevo, Lena",
      "Ha iniciado sesión como <strong>",
      "Sus donaciones",
      "Donación mensual",
      "Recibo",
      "Donaciones periódicas",
      "Próximo cargo el",
      "Activa",
      "Cambiar importe",
      "Cambiar tarjeta",
      "Cancelar donación",
      "Certificados anuales",
      "Sus datos",
      "Descargar mis datos (JSON)",
      "Cerrar sesión",
      "Saltar al contenido",
      "Recaudación de fondos con Goodfund",
    ],
    money: ["25,00\u00a0€", "10,00\u00a0€ al mes"],
  },
  fr: {
    tag: "fr",
    texts: [
      "Bienvenue, Lena",
      "Vos dons",
      "Don mensuel",
      "Reçu",
      "Dons réguliers",
      "Prochain prélèvement le",
      "Actif",
      "Modifier le montant",
      "Changer de carte",
      "Annuler le don",
      "Relevés annuels",
      "Vos données",
      "Télécharger mes données (JSON)",
      "Se déconnecter",
      "Aller au contenu",
    ],
    money: ["25,00\u00a0€", "10,00\u00a0€ par mois"],
  },
  de: {
    tag: "de",
    texts: [
      "Willkommen zurück, Lena",
      "Angemeldet als <strong>",
      "Ihre Spenden",
      "Monatliche Spende",
      "Beleg",
      "Regelmäßige Spenden",
      "Nächste Abbuchung am",
      "Aktiv",
      "Betrag ändern",
      "Karte ersetzen",
      "Spende beenden",
      "Jahresspendenbescheinigungen",
      "Ihre Daten",
      "Meine Daten herunterladen (JSON)",
      "Abmelden",
      "Zum Inhalt springen",
    ],
    money: ["25,00\u00a0€", "10,00\u00a0€ pro Monat"],
  },
};

/** English words of the same page that must not be left in another language. */
const ENGLISH = [
  "Welcome back",
  "Your gifts",
  "Recurring gifts",
  "Next charge",
  "Change amount",
  "Sign out",
  "a month",
  "Your data",
  "€25.00",
];

describe("the signed-in account page", () => {
  for (const [locale, want] of Object.entries(OVERVIEW) as [Exclude<Locale, "en">, (typeof OVERVIEW)["es"]][]) {
    it(`in ${locale}: its headings, buttons, plan status, money and dates are in that language`, async () => {
      asRequest(locale, { cookie });
      const page = await accountPage(org.slug);
      for (const text of want.texts) expect(page, text).toContain(text);
      for (const money of want.money) expect(page, money).toContain(money);
      expect(page).toContain(today(want.tag));
      for (const text of ENGLISH) expect(page, `English left: ${text}`).not.toContain(text);
      // The donor's own words (the campaign's title, their email) stay as they are.
      expect(page).toContain("Wintermahlzeiten");
      expect(page).toContain(email);
    });
  }

  it("in English it reads as before, in dollars-style formatting for the organization's euros", async () => {
    asRequest("en", { cookie });
    const page = await accountPage(org.slug);
    for (const text of ["Welcome back, Lena", "Your gifts", "Monthly gift", "€25.00", "€10.00 a month", "Next charge", today("en-US")]) {
      expect(page, text).toContain(text);
    }
    expect(page).toContain(`Receipt<span class="sr-only"> for €25.00 to Wintermahlzeiten on ${today("en-US")}</span>`);
  });

  it("the receipt's hidden description is a sentence of the page's language", async () => {
    asRequest("de", { cookie });
    const page = await accountPage(org.slug);
    expect(page).toContain(`Beleg<span class="sr-only"> über 25,00\u00a0€ für Wintermahlzeiten vom ${today("de")}</span>`);
  });

  it("a gift's receipt link is its receipt PDF; without a receipt number, its confirmation page, carrying ?lang= but not Accept-Language", async () => {
    asRequest("fr", { cookie, viaParam: true });
    const withReceipts = await accountPage(org.slug);
    const pdfLinks = [...withReceipts.matchAll(/href="([^"]*\/receipt\.pdf)"/g)].map((m) => m[1]);
    expect(pdfLinks).toHaveLength(2);
    for (const href of pdfLinks) expect(href).toMatch(new RegExp(`^/api/donor/orgs/${org.slug}/donations/[^/]+/receipt\\.pdf$`));
    // A gift receipted elsewhere (as imported gifts are) has no receipt number here.
    const db = await testDb();
    const id = pdfLinks[0].split("/").at(-2)!;
    const [{ number }] = await db.select({ number: donations.receiptNumber }).from(donations).where(eq(donations.id, id));
    await db.update(donations).set({ receiptNumber: null }).where(eq(donations.id, id));
    try {
      const withParam = await accountPage(org.slug);
      expect(withParam).toMatch(/href="[^"]*\/thank-you\?donation=[^"&]+&amp;lang=fr"/);
      asRequest("fr", { cookie });
      const withoutParam = await accountPage(org.slug);
      expect(withoutParam).toMatch(/href="[^"]*\/thank-you\?donation=[^"&]+"/);
      expect(withoutParam).not.toContain("lang=fr");
    } finally {
      await db.update(donations).set({ receiptNumber: number }).where(eq(donations.id, id));
    }
  });

  it("the page's title is in its language", async () => {
    asRequest("es", { cookie });
    expect(await titleOf("account", org.slug)).toBe("Su cuenta · Tafel Nord");
    asRequest("de");
    expect(await titleOf("sign-in", org.slug)).toBe("Anmelden · Tafel Nord");
  });
});

describe("signed out", () => {
  const SIGNED_OUT: Record<Locale, string[]> = {
    en: ["Your donor account", "Sign in with your email", "Email address", "Email me a sign-in link", escaped("Haven't given yet?")],
    es: ["Su cuenta de donante", "Inicie sesión con su correo electrónico", "Correo electrónico", "Enviarme un enlace de inicio de sesión"],
    fr: ["Votre espace donateur", "Connectez-vous avec votre adresse e-mail", "Adresse e-mail", "Recevoir un lien de connexion par e-mail"],
    de: ["Ihr Spenderkonto", "Mit Ihrer E-Mail-Adresse anmelden", "E-Mail-Adresse", "Anmeldelink per E-Mail senden"],
  };
  for (const [locale, texts] of Object.entries(SIGNED_OUT) as [Locale, string[]][]) {
    it(`the account page asks for a sign-in link in ${locale}`, async () => {
      asRequest(locale);
      const page = await accountPage(org.slug);
      for (const text of texts) expect(page, text).toContain(text);
      expect(page).toContain("Tafel Nord");
    });
  }

  it("its link to the organization's campaigns carries ?lang= on when the visitor chose it that way", async () => {
    asRequest("es", { viaParam: true });
    expect(await accountPage(org.slug)).toContain(`href="/o/${org.slug}?lang=es"`);
    asRequest("es");
    expect(await accountPage(org.slug)).toContain(`href="/o/${org.slug}"`);
  });
});

/** A usable sign-in link's token, asked for through the API (in `locale`) and read from the queued email. */
async function freshToken(locale: Locale): Promise<string> {
  const res = await post(`/api/public/orgs/${org.slug}/donor-sessions`, { email, locale }, { ip: randomIp() });
  expect(res.status, res.text).toBe(202);
  const url = new URL((await queuedSignInEmails(email)).at(-1)!.props.url);
  return url.searchParams.get("token")!;
}

describe("the sign-in page", () => {
  it("an emailed link opens the Continue step in the page's language, posting with the chosen ?lang=", async () => {
    const token = await freshToken("de");
    asRequest("de", { viaParam: true });
    const page = await signInPage(org.slug, token);
    expect(page).toContain("Bei Ihrem Konto anmelden");
    expect(page).toContain("Weiter zu Ihrem Konto");
    expect(page).toContain("Dieser Link funktioniert einmal");
    expect(page).toContain('action="sign-in/confirm?lang=de"');
  });

  const EXPIRED: Record<Exclude<Locale, "en">, string[]> = {
    es: ["Este enlace de inicio de sesión ha caducado o ya se ha utilizado", "Enviarme un nuevo enlace de inicio de sesión"],
    fr: ["Ce lien de connexion a expiré ou a déjà été utilisé", "Recevoir un nouveau lien de connexion"],
    de: ["Dieser Anmeldelink ist abgelaufen oder wurde bereits verwendet", "Neuen Anmeldelink per E-Mail senden"],
  };
  for (const [locale, texts] of Object.entries(EXPIRED) as [Exclude<Locale, "en">, string[]][]) {
    it(`a used or unknown link says so in ${locale} and offers a new one`, async () => {
      asRequest(locale);
      const page = await signInPage(org.slug, "not-a-real-token");
      for (const text of texts) expect(page, text).toContain(text);
      expect(page).not.toContain("Email me a new sign-in link");
    });
  }

  it("the confirm route's redirects carry ?lang= on, and only when the page posted with it", async () => {
    const { POST: confirmSignIn } = await import("@/app/o/[orgSlug]/account/sign-in/confirm/route");
    const confirm = (token: string, query: string) =>
      confirmSignIn(
        new NextRequest(new URL(`/o/${org.slug}/account/sign-in/confirm${query}`, "http://localhost:3000"), {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
            origin: "http://localhost:3000",
          },
          body: new URLSearchParams({ token }).toString(),
        }),
        { params: Promise.resolve({ orgSlug: org.slug }) },
      );
    const signedIn = await confirm(await freshToken("fr"), "?lang=fr");
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("../../account?lang=fr");
    const expired = await confirm("not-a-real-token", "?lang=fr");
    expect(expired.headers.get("location")).toBe("../sign-in?link=expired&lang=fr");
    // Anything but one of our languages is dropped, not echoed into the address.
    expect((await confirm("not-a-real-token", "?lang=xx")).headers.get("location")).toBe("../sign-in?link=expired");
    expect((await confirm("not-a-real-token", "")).headers.get("location")).toBe("../sign-in?link=expired");
  });
});
