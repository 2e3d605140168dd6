import { describe, expect, it } from "vitest";
import { emailSubject, type RenderedEmail } from "@/lib/email/render";
import type {
  DonorSignInProps,
  EmailPropsByTemplate,
  EmailTemplate,
  PlanCanceledProps,
  ReceiptProps,
  RefundConfirmationProps,
  TributeProps,
  YearEndStatementProps,
} from "@/lib/email/types";
import type { Locale } from "@/lib/i18n/locales";
import { renderTemplate as render } from "../helpers/email";

/** Text with the no-break spaces Intl and French punctuation use ("50,00\u00a0€", "Montant\u00a0:") as plain spaces. */
const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

/** The HTML part's visible text: tags dropped, entities decoded. */
const htmlText = (html: string) =>
  spaces(
    html
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  );

/** Each string appears in the HTML part and in the plain-text part. */
function expectInBoth(email: RenderedEmail, ...needles: string[]) {
  const html = htmlText(email.html);
  const text = spaces(email.text);
  for (const needle of needles.map(spaces)) {
    expect(html, `html has ${needle}`).toContain(needle);
    expect(text, `text has ${needle}`).toContain(needle);
  }
}

/** The subject, its no-break spaces as plain ones. */
const subjectOf = (email: RenderedEmail) => spaces(email.subject);

const receipt: ReceiptProps = {
  donorFirstName: "Zoë",
  donorName: "Zoë Ångström",
  donorEmail: "zoe.angstrom@example.org",
  amountCents: 5000,
  currency: "eur",
  campaignTitle: "Fjällbacka Lighthouse",
  orgName: "Lighthouse Friends",
  orgLegalName: null,
  orgTaxId: "98-7654321",
  date: "2025-03-05T14:00:00.000Z",
  donationId: "don_zoe7Q4M2X9",
  dedication: { type: "IN_MEMORY", honoreeName: "Ingrid Bergström", message: null },
  recurring: { interval: "MONTH", amountCents: 5000, currency: "eur" },
  isRenewal: false,
  tickets: 2,
  campaignUrl: "https://goodfund.example.org/o/lighthouse/donate/fjallbacka",
  accountUrl: "https://goodfund.example.org/o/lighthouse/account",
};

const tribute: TributeProps = {
  honoreeName: "Ingrid Bergström",
  type: "IN_MEMORY",
  donorName: "Zoë Ångström",
  anonymous: false,
  message: "She loved the sea.",
  campaignTitle: "Fjällbacka Lighthouse",
  orgName: "Lighthouse Friends",
  campaignUrl: "https://goodfund.example.org/o/lighthouse/donate/fjallbacka",
};

const refund: RefundConfirmationProps = {
  donorFirstName: "Zoë",
  donorName: "Zoë Ångström",
  donorEmail: "zoe.angstrom@example.org",
  refundedAmountCents: 5000,
  refundedAt: "2025-03-12T09:00:00.000Z",
  amountCents: 5000,
  currency: "eur",
  donatedAt: "2025-03-05T14:00:00.000Z",
  campaignTitle: "Fjällbacka Lighthouse",
  donationId: "don_zoe7Q4M2X9",
  orgName: "Lighthouse Friends",
  orgContactEmail: "hello@lighthouse.example.org",
};

const planCanceled: PlanCanceledProps = {
  orgName: "Lighthouse Friends",
  donorFirstName: "Zoë",
  donorName: "Zoë Ångström",
  donorEmail: "zoe.angstrom@example.org",
  amountCents: 5000,
  currency: "eur",
  interval: "YEAR",
  campaignTitle: "Fjällbacka Lighthouse",
  planId: "rp_zoe",
  canceledAt: "2025-03-12T09:00:00.000Z",
  url: "https://goodfund.example.org/o/lighthouse/account",
};

const signIn: DonorSignInProps = {
  url: "https://goodfund.example.org/o/lighthouse/account/sign-in?token=zoe123",
  orgName: "Lighthouse Friends",
  expiresInMinutes: 15,
};

const statement: YearEndStatementProps = {
  orgName: "Lighthouse Friends",
  donorFirstName: "Zoë",
  donorName: "Zoë Ångström",
  year: 2025,
  accountUrl: "https://goodfund.example.org/o/lighthouse/account",
  statement: { orgId: "org_1", donorId: "dnr_1", year: 2025 },
};

// What each language must say: the subject exactly, and a few distinctive words in both parts.
const expected: Record<
  Exclude<Locale, "en">,
  {
    receipt: { subject: string; words: string[] };
    renewalSubject: string;
    tribute: { subject: string; words: string[] };
    refund: { subject: string; words: string[] };
    planCanceled: { subject: string; words: string[] };
    signIn: { subject: string; words: string[] };
    statement: { subject: string; words: string[] };
    testMode: { prefix: string; note: string };
  }
> = {
  es: {
    receipt: {
      subject: "¡Gracias, Zoë! Su recibo por 50,00 € para Fjällbacka Lighthouse",
      words: [
        "Hemos recibido su donación de 50,00 € para Fjällbacka Lighthouse el 5 de marzo de 2025.",
        "en memoria de Ingrid Bergström",
        "Se le cobrarán 50,00 € cada mes hasta que cancele la donación.",
        "2 entradas",
        "Importe: 50,00 €",
        "Identificación fiscal: 98-7654321",
        "su cuenta de donante",
      ],
    },
    renewalSubject: "¡Gracias, Zoë! Su donación anual de 50,00 € para Fjällbacka Lighthouse se ha renovado",
    tribute: {
      subject: "Zoë Ångström ha hecho una donación en memoria de Ingrid Bergström",
      words: ["una campaña de Lighthouse Friends", "Zoë Ångström escribió:", "mantienen vivo el recuerdo de Ingrid Bergström"],
    },
    refund: {
      subject: "Su reembolso de 50,00 € de Lighthouse Friends está en camino",
      words: [
        "Zoë, su donación ha sido reembolsada",
        "el 12 de marzo de 2025",
        "días hábiles",
        "Donación original",
        "hello@lighthouse.example.org",
      ],
    },
    planCanceled: {
      subject: "Su donación anual a Lighthouse Friends está cancelada",
      words: ["Canceló su donación anual de 50,00 € para Fjällbacka Lighthouse el 12 de marzo de 2025.", "Donación: 50,00 € (anual)"],
    },
    signIn: {
      subject: "Su enlace de acceso a su cuenta de donante de Lighthouse Friends",
      words: ["durante 15 minutos", "Abrir mi cuenta", "Si el botón no funciona"],
    },
    statement: {
      subject: "Su certificado de donaciones de 2025 de Lighthouse Friends",
      words: ["Zoë, aquí tiene su certificado de donaciones de 2025", "Gracias por apoyar a Lighthouse Friends en 2025."],
    },
    testMode: { prefix: "[Modo de prueba] ", note: "Modo de prueba: no se realizó ningún pago real." },
  },
  fr: {
    receipt: {
      subject: "Merci, Zoë\u00a0! Votre reçu pour votre don de 50,00\u00a0€ à Fjällbacka Lighthouse",
      words: [
        "Nous avons bien reçu votre don de 50,00\u00a0€ à Fjällbacka Lighthouse le 5 mars 2025.",
        "en mémoire de Ingrid Bergström",
        "Nous prélèverons 50,00\u00a0€ chaque mois",
        "2 billets",
        "Montant\u00a0: 50,00\u00a0€",
        "Numéro fiscal\u00a0: 98-7654321",
        "votre espace donateur",
      ],
    },
    renewalSubject: "Merci, Zoë\u00a0! Votre don annuel de 50,00\u00a0€ à Fjällbacka Lighthouse a été renouvelé",
    tribute: {
      subject: "Zoë Ångström a fait un don en mémoire de Ingrid Bergström",
      words: ["une campagne de Lighthouse Friends", "Zoë Ångström a écrit\u00a0:", "font vivre le souvenir de Ingrid Bergström"],
    },
    refund: {
      subject: "Votre remboursement de 50,00\u00a0€ par Lighthouse Friends est en cours",
      words: ["Zoë, votre don a été remboursé", "le 12 mars 2025", "jours ouvrés", "Don initial", "hello@lighthouse.example.org"],
    },
    planCanceled: {
      subject: "Votre don annuel à Lighthouse Friends est annulé",
      words: [
        "Vous avez annulé votre don annuel de 50,00\u00a0€ à Fjällbacka Lighthouse le 12 mars 2025.",
        "Don\u00a0: 50,00\u00a0€ (annuel)",
      ],
    },
    signIn: {
      subject: "Votre lien de connexion à votre espace donateur Lighthouse Friends",
      words: ["pendant 15 minutes", "Ouvrir mon espace donateur", "Si le bouton ne fonctionne pas"],
    },
    statement: {
      subject: "Votre relevé de dons 2025 de Lighthouse Friends",
      words: ["Zoë, voici votre relevé de dons 2025", "Merci d’avoir soutenu Lighthouse Friends en 2025."],
    },
    testMode: { prefix: "[Mode test] ", note: "Mode test\u00a0: aucun paiement réel n’a été effectué." },
  },
  de: {
    receipt: {
      subject: "Vielen Dank, Zoë! Ihre Spendenquittung über 50,00 € für Fjällbacka Lighthouse",
      words: [
        "Wir haben Ihre Spende von 50,00 € für Fjällbacka Lighthouse am 5. März 2025 erhalten.",
        "im Gedenken an Ingrid Bergström",
        "Es werden monatlich 50,00 € abgebucht, bis Sie kündigen.",
        "2 Tickets",
        "Betrag: 50,00 €",
        "Steuernummer: 98-7654321",
        "Ihrem Spenderkonto",
      ],
    },
    renewalSubject: "Vielen Dank, Zoë! Ihre jährliche Spende von 50,00 € für Fjällbacka Lighthouse wurde erneuert",
    tribute: {
      subject: "Zoë Ångström hat im Gedenken an Ingrid Bergström gespendet",
      words: ["eine Kampagne von Lighthouse Friends", "Zoë Ångström schreibt:", "halten die Erinnerung an Ingrid Bergström"],
    },
    refund: {
      subject: "Ihre Erstattung über 50,00 € von Lighthouse Friends ist unterwegs",
      words: ["Zoë, Ihre Spende wurde erstattet", "am 12. März 2025", "Werktagen", "Ursprüngliche Spende", "hello@lighthouse.example.org"],
    },
    planCanceled: {
      subject: "Ihre jährliche Spende an Lighthouse Friends ist gekündigt",
      words: [
        "Sie haben Ihre jährliche Spende von 50,00 € für Fjällbacka Lighthouse am 12. März 2025 gekündigt.",
        "Spende: 50,00 € (jährlich)",
      ],
    },
    signIn: {
      subject: "Ihr Anmeldelink für Ihr Spenderkonto bei Lighthouse Friends",
      words: ["innerhalb von 15 Minuten", "Mein Spenderkonto öffnen", "Falls die Schaltfläche nicht funktioniert"],
    },
    statement: {
      subject: "Ihre Spendenübersicht 2025 von Lighthouse Friends",
      words: ["Zoë, hier ist Ihre Spendenübersicht 2025", "Vielen Dank, dass Sie Lighthouse Friends im Jahr 2025 unterstützt haben."],
    },
    testMode: { prefix: "[Testmodus] ", note: "Testmodus: Es wurde keine echte Zahlung ausgeführt." },
  },
};

const english = /\b(Thank you|Your receipt|gift|Donation ID|If the button|Amount:|refunded|canceled|statement from)\b/;

describe("donor emails in the donor's language", () => {
  for (const [locale, want] of Object.entries(expected) as [Exclude<Locale, "en">, (typeof expected)["es"]][]) {
    describe(locale, () => {
      it("receipt: subject, body, summary and money in the language (50,00 € for eur)", async () => {
        const email = await render("receipt", { ...receipt, locale });
        expect(subjectOf(email)).toBe(spaces(want.receipt.subject));
        expectInBoth(email, ...want.receipt.words);
        expect(email.html).toMatch(new RegExp(`<html[^>]*lang="${locale}"`));
        expect(email.text).not.toMatch(english);
        const renewal = await render("receipt", {
          ...receipt,
          locale,
          isRenewal: true,
          recurring: { interval: "YEAR", amountCents: 5000, currency: "eur" },
        });
        expect(subjectOf(renewal)).toBe(spaces(want.renewalSubject));
      });

      it("receipt: yen without decimals", async () => {
        const email = await render("receipt", {
          ...receipt,
          locale,
          currency: "jpy",
          amountCents: 5000,
          recurring: { interval: "MONTH", amountCents: 5000, currency: "jpy" },
        });
        // ¥ or its full-width form, 5 000 grouped in the language's way, and never a decimal part.
        expect(email.subject).toMatch(/(¥|￥)\s?5[.,\u00a0\u202f]?000|5[.,\u00a0\u202f]?000\s?(¥|￥|JPY)/);
        expect(email.text).not.toMatch(/5[.,\u00a0\u202f]?000[.,]00/);
      });

      it("tribute: the honoree's email in the donor's language", async () => {
        const email = await render("tribute", { ...tribute, locale });
        expect(subjectOf(email)).toBe(spaces(want.tribute.subject));
        expectInBoth(email, ...want.tribute.words);
        expect(email.text).not.toMatch(english);
      });

      it("refund confirmation", async () => {
        const email = await render("refund-confirmation", { ...refund, locale });
        expect(subjectOf(email)).toBe(spaces(want.refund.subject));
        expectInBoth(email, ...want.refund.words);
        expect(email.html).toContain('href="mailto:hello@lighthouse.example.org"');
        expect(email.text).not.toMatch(english);
      });

      it("plan canceled", async () => {
        const email = await render("plan-canceled", { ...planCanceled, locale });
        expect(subjectOf(email)).toBe(spaces(want.planCanceled.subject));
        expectInBoth(email, ...want.planCanceled.words);
        expect(email.text).not.toMatch(english);
      });

      it("donor sign-in", async () => {
        const email = await render("donor-sign-in", { ...signIn, locale });
        expect(subjectOf(email)).toBe(spaces(want.signIn.subject));
        expectInBoth(email, ...want.signIn.words);
        expect(email.text).toContain(signIn.url);
        expect(email.text).not.toMatch(english);
      });

      it("year-end statement: the year written as a year", async () => {
        const email = await render("year-end-statement", { ...statement, locale });
        expect(subjectOf(email)).toBe(spaces(want.statement.subject));
        expectInBoth(email, ...want.statement.words);
        expect(email.html).toContain(`href="${statement.accountUrl}"`);
        expect(email.text).not.toMatch(english);
      });

      it("test mode: the subject's mark and the first line in the language", async () => {
        const email = await render("receipt", { ...receipt, locale }, true);
        expect(subjectOf(email)).toBe(spaces(`${want.testMode.prefix}${want.receipt.subject}`));
        expect(emailSubject({ template: "receipt", props: { ...receipt, locale } }, { testMode: true })).toBe(email.subject);
        expect(spaces(email.text).startsWith(spaces(want.testMode.note))).toBe(true);
      });
    });
  }

  it("jpy has no decimals in any language, English included", async () => {
    for (const locale of ["en", "es", "fr", "de"] as const) {
      const email = await render("refund-confirmation", {
        ...refund,
        locale,
        currency: "jpy",
        refundedAmountCents: 5000,
        amountCents: 5000,
      });
      expect(email.text, locale).toMatch(/5[.,\u00a0\u202f]?000/);
      expect(email.text, locale).not.toMatch(/5[.,\u00a0\u202f]?000[.,]\d/);
    }
  });

  it("props without a locale (emails queued before languages) render exactly as locale en", async () => {
    const cases: [EmailTemplate, EmailPropsByTemplate[EmailTemplate]][] = [
      ["receipt", receipt],
      ["tribute", tribute],
      ["refund-confirmation", refund],
      ["plan-canceled", planCanceled],
      ["donor-sign-in", signIn],
      ["year-end-statement", statement],
    ];
    for (const [template, props] of cases) {
      for (const testMode of [false, true]) {
        const none = await render(template, props, testMode);
        expect(await render(template, { ...props, locale: "en" }, testMode), template).toEqual(none);
        expect(none.html).toMatch(/<html[^>]*lang="en"/);
      }
    }
    const english = await render("receipt", receipt);
    expect(subjectOf(english)).toBe("Thank you, Zoë! Your receipt for €50.00 to Fjällbacka Lighthouse");
    expect(english.text).toContain("We received your gift of €50.00 to Fjällbacka Lighthouse on March 5, 2025.");
  });

  it("a locale that is not one of ours falls back to English instead of failing", async () => {
    const email = await render("receipt", { ...receipt, locale: "it" as Locale });
    expect(subjectOf(email)).toBe("Thank you, Zoë! Your receipt for €50.00 to Fjällbacka Lighthouse");
    expect(email.html).toMatch(/<html[^>]*lang="en"/);
  });

  it("the organization's own emails stay in English", async () => {
    const email = await render("plan-canceled-notice", { ...planCanceled, locale: "de" });
    expect(subjectOf(email)).toBe("Recurring gift canceled by the donor: €50.00 yearly to Fjällbacka Lighthouse from Zoë Ångström");
    expect(email.html).toMatch(/<html[^>]*lang="en"/);
  });
});
