/**
 * The donate page, its thank-you page and the donate form's own rules in English, Spanish, French
 * and German: the words come from the page's language, and money, dates and counts are written
 * the way that language writes them (a euro organization shows "1.234,56 €" in German; yen never
 * shows decimals in any language).
 */
import { createElement, type ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { donateFormSchema, donationRequestBody } from "@/components/donate/donate-schema";
import { donateWording } from "@/components/donate/issue-words";
import { I18nProvider } from "@/components/i18n/provider";
import { messagesFor } from "@/lib/i18n/catalog";
import { issueCodeOf } from "@/lib/errors";
import { LANG_PARAM_HEADER, LOCALE_HEADER, intlTag, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { formatMoney } from "@/lib/money";
import { patch, type TestUser } from "../helpers/api";
import { customGift, formCampaign } from "../helpers/donate-form";
import { donatePage as renderDonatePage } from "../helpers/donate-page";
import { activeCampaign, activeOrg, paidDonation, type Campaign, type Org } from "../helpers/records";

// The page reads the language proxy.ts chose from the request's headers: here, the test's.
let requestHeaders = new Headers();
vi.mock("next/headers", async (original) => ({
  ...(await original<typeof import("next/headers")>()),
  headers: async () => requestHeaders,
}));

const NBSP = "\u00a0";
const NNBSP = "\u202f";

/** The headers proxy.ts hands a page asked for in `locale` (with `?lang=` when `viaParam`). */
function askFor(locale: Locale, viaParam = false) {
  requestHeaders = new Headers({ [LOCALE_HEADER]: locale, ...(viaParam ? { [LANG_PARAM_HEADER]: locale } : {}) });
}

/** A page's HTML inside what its organization's layout gives it (the language) and Next's router context. */
async function inSite(locale: Locale, page: ReactNode): Promise<string> {
  const { renderToStaticMarkup } = await import("react-dom/server");
  const { AppRouterContext } = await import("next/dist/shared/lib/app-router-context.shared-runtime");
  const router = { refresh() {}, push() {}, replace() {}, back() {}, forward() {}, prefetch() {} };
  const language = { locale, langParam: null, messages: messagesFor(locale, ["common", "donate", "account"]) };
  const site = createElement(I18nProvider, language as Parameters<typeof I18nProvider>[0], page);
  return renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router as never }, site));
}

async function donatePage(locale: Locale, orgSlug: string, slug: string): Promise<string> {
  return (await renderDonatePage(orgSlug, slug, { locale })).html;
}

async function thankYouPage(locale: Locale, orgSlug: string, slug: string, donation: string, viaParam = false): Promise<string> {
  askFor(locale, viaParam);
  const { default: ThankYouPage } = await import("@/app/o/[orgSlug]/donate/[slug]/thank-you/page");
  const page = await ThankYouPage({ params: Promise.resolve({ orgSlug, slug }), searchParams: Promise.resolve({ donation }) });
  return inSite(locale, page);
}

async function orgIn(currency: string): Promise<{ owner: TestUser; org: Org }> {
  const { owner, org } = await activeOrg();
  const res = await patch(`/api/orgs/${org.id}`, { currency }, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  return { owner, org: res.body };
}

let euro: Org;
let appeal: Campaign;
let gala: Campaign;
let opening: Campaign;
let yen: Org;
let sakura: Campaign;
const galaDate = "2031-03-01T18:00:00.000Z";

beforeAll(async () => {
  const e = await orgIn("EUR");
  euro = e.org;
  appeal = await activeCampaign(euro, e.owner, {
    title: "Winterhilfe",
    suggestedAmounts: [2500, 123456],
    allowCustomAmount: true,
    allowRecurring: true,
    goalAmountCents: 1_000_000,
    showGoal: true,
  });
  gala = await activeCampaign(euro, e.owner, {
    title: "Gala",
    type: "EVENT",
    ticketPriceCents: 4550,
    ticketCapacity: 100,
    startDate: galaDate,
  });
  opening = await activeCampaign(euro, e.owner, { title: "Frühling", startDate: "2031-04-15T09:30:00.000Z" });
  const y = await orgIn("JPY");
  yen = y.org;
  sakura = await activeCampaign(yen, y.owner, { title: "Sakura", suggestedAmounts: [1000, 5000, 123456], goalAmountCents: 1_000_000 });
});

afterEach(() => {
  requestHeaders = new Headers();
});

describe("the donate page in the request's language", () => {
  it("German: German words, euros as 1.234,56 €, the event's date in German", async () => {
    const html = await donatePage("de", euro.slug, appeal.slug);
    expect(html).toContain("Jetzt spenden");
    expect(html).toContain("Weiter zur Zahlung");
    expect(html).toContain("Wählen Sie einen Betrag");
    expect(html).toContain("Ihre Angaben");
    expect(html).toContain(`1.234,56${NBSP}€`);
    expect(html).toContain(`25${NBSP}€`);
    expect(html).toContain(`Mindestens 1,00${NBSP}€`);
    expect(html).not.toContain("Continue to payment");
    expect(html).not.toContain("€1,234.56");

    const event = await donatePage("de", euro.slug, gala.slug);
    expect(event).toContain("Sichern Sie sich Ihre Tickets");
    expect(event).toContain(`45,50${NBSP}€ pro Ticket`);
    expect(event).toContain("Samstag, 1. März 2031");
  });

  it("Spanish: Spanish words and money, and the date giving opens in Spanish", async () => {
    const html = await donatePage("es", euro.slug, appeal.slug);
    expect(html).toContain("Haga una donación");
    expect(html).toContain("Continuar al pago");
    expect(html).toContain("Paso 1 de 2");
    expect(html).toContain(`1234,56${NBSP}€`);
    expect(html).toContain(`Mínimo 1,00${NBSP}€`);
    expect(html).toContain(`recaudados de una meta de 10.000${NBSP}€`);

    const closed = await donatePage("es", euro.slug, opening.slug);
    expect(closed).toContain("Las donaciones aún no están abiertas");
    expect(closed).toContain("martes, 15 de abril de 2031");
    expect(closed).toContain("En esta página no se puede realizar ningún pago.");
  });

  it("French: French words, 1 234,56 € with French spaces, and a French date", async () => {
    const html = await donatePage("fr", euro.slug, appeal.slug);
    expect(html).toContain("Faites un don");
    expect(html).toContain("Continuer vers le paiement");
    expect(html).toContain("Vos coordonnées");
    expect(html).toContain(`1${NNBSP}234,56${NBSP}€`);
    expect(html).toContain(`0${NBSP}% de l’objectif`);

    const event = await donatePage("fr", euro.slug, gala.slug);
    expect(event).toContain("Réservez vos billets");
    expect(event).toContain("samedi 1 mars 2031");
  });

  it("English stays as it was: $-style money and English words", async () => {
    const html = await donatePage("en", euro.slug, appeal.slug);
    expect(html).toContain("Make a donation");
    expect(html).toContain("Continue to payment");
    expect(html).toContain("€1,234.56");
    expect(html).toContain("Minimum €1.00");
  });

  it("a yen campaign shows whole yen, never decimals, in every language", async () => {
    const expected: Record<Locale, string[]> = {
      en: ["¥1,000", "¥5,000", "¥123,456", "Minimum ¥100"],
      es: [`1000${NBSP}JPY`, `5000${NBSP}JPY`, `123.456${NBSP}JPY`, `Mínimo 100${NBSP}JPY`],
      fr: [`1${NNBSP}000${NBSP}JPY`, `5${NNBSP}000${NBSP}JPY`, `123${NNBSP}456${NBSP}JPY`, `Minimum 100${NBSP}JPY`],
      de: [`1.000${NBSP}¥`, `5.000${NBSP}¥`, `123.456${NBSP}¥`, `Mindestens 100${NBSP}¥`],
    };
    for (const [locale, amounts] of Object.entries(expected) as [Locale, string[]][]) {
      const html = await donatePage(locale, yen.slug, sakura.slug);
      for (const amount of amounts) expect(html, locale).toContain(amount);
      // No yen amount with a decimal part, whatever the language's separator.
      expect(html, locale).not.toMatch(/(¥|JPY)\s?\d[\d.,\s\u00a0\u202f]*[.,]\d{2}(?!\d)|\d[.,]\d{2}[\s\u00a0\u202f]?(¥|JPY)/);
      // Whole-number keypad and placeholder.
      expect(html, locale).toMatch(/placeholder="0"/);
    }
  });
});

describe("the thank-you page in the request's language", () => {
  it("thanks the donor in Spanish with the amount in Spanish, and its links keep ?lang=", async () => {
    const paid = await paidDonation(appeal.id, { amount: 123456, firstName: "Lucía", locale: "es" });
    const html = await thankYouPage("es", euro.slug, appeal.slug, paid.id, true);
    expect(html).toContain("¡Gracias, Lucía!");
    expect(html).toContain(`Su donación de <strong class="`);
    expect(html).toContain(`1234,56${NBSP}€`);
    expect(html).toContain("Su recibo está en camino a su correo electrónico.");
    expect(html).toContain(`href="/o/${euro.slug}/donate/${appeal.slug}?lang=es"`);
    expect(html).toContain("← Volver a Winterhilfe");
  });

  it("in German and French, as those languages write it", async () => {
    const paid = await paidDonation(appeal.id, { amount: 2500, firstName: "Jonas" });
    const de = await thankYouPage("de", euro.slug, appeal.slug, paid.id);
    expect(de).toContain("Vielen Dank, Jonas!");
    expect(de).toContain(`25,00${NBSP}€`);
    expect(de).toContain(`href="/o/${euro.slug}/donate/${appeal.slug}"`);
    const fr = await thankYouPage("fr", euro.slug, appeal.slug, paid.id);
    expect(fr).toContain("Merci, Jonas !");
    expect(fr).toContain("Un reçu est en route vers votre boîte e-mail.");
  });
});

describe("the donate form's own rules in the page's language", () => {
  const campaign = formCampaign({ currency: "eur", title: "Winterhilfe", suggestedAmounts: [2500] });
  const filled = (custom: string) => customGift(campaign, custom, { firstName: "Jonas", lastName: "Weber", email: "jonas@example.org" });

  it("reads an amount the way the language writes it, and sends the page's language with the gift", () => {
    expect(donationRequestBody(filled("25,50"), campaign, false, "de")).toMatchObject({ amount: 2550, locale: "de" });
    expect(donationRequestBody(filled("1.234,56 "), campaign, false, "fr")).toMatchObject({ amount: 123456, locale: "fr" });
    expect(donationRequestBody(filled("25.50"), campaign, false, "en")).toMatchObject({ amount: 2550, locale: "en" });
    // Without a language (the API's own clients), as before: no locale, dots for decimals.
    expect(donationRequestBody(filled("25.50"), campaign, false)).not.toHaveProperty("locale");
    const de = (text: string) => donateFormSchema(campaign, filled(text), { captcha: false, captchaUnavailable: false, locale: "de" });
    expect(de("12,50").safeParse(filled("12,50")).success).toBe(true);
    expect(de("4,99").safeParse(filled("4,99")).success).toBe(false);
  });

  it("words the form's problems in the page's language", () => {
    const worded = (locale: Locale, custom: string, values: Partial<ReturnType<typeof filled>> = {}) => {
      const t = translator(locale, "donate");
      const wording = donateWording(
        (key, v) => t(`errors.${key}`, v),
        (c) => formatMoney(c, "eur", { locale: intlTag(locale) }),
        intlTag(locale),
      );
      const v = { ...filled(custom), ...values };
      const issues = donateFormSchema(campaign, v, { captcha: false, captchaUnavailable: false, locale: intlTag(locale) }).safeParse(v)
        .error?.issues;
      return Object.fromEntries((issues ?? []).map((i) => [i.path.join("."), wording.text(i.path.join("."), issueCodeOf(i), i.message)]));
    };
    expect(worded("de", "4,99", { firstName: "" })).toEqual({
      amount: `Die Mindestspende beträgt 5,00${NBSP}€`,
      firstName: "Geben Sie Ihren Vornamen ein",
    });
    expect(worded("es", "12,345")).toEqual({ amount: "Use como máximo dos decimales" });
    expect(worded("fr", "abc", { email: "nope" })).toEqual({
      amount: "Saisissez un montant comme 25 ou 25,50",
      email: "Saisissez une adresse e-mail comme nom@exemple.com",
    });
    expect(worded("en", "4.99")).toEqual({ amount: "The minimum gift is €5.00" });
  });
});
