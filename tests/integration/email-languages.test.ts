/**
 * The language of the emails a donor (or their tribute's honoree) receives, through the real
 * routes: a gift's receipt and tribute in the language it was given in (the `locale` it was
 * started with, else the browser's Accept-Language, else the organization's defaultLocale), the
 * donor taking that language when the payment succeeds, renewals, refunds, canceled plans and
 * year-end statements following it, the sign-in email in the language it was asked for in, and
 * the organization's own notification staying English.
 */
import { execFileSync } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { donations, donors, outbox } from "@/db/schema";
import { renderEmail } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";
import { emailAttachments } from "@/lib/services/statements/statement-attachment";
import { patch, post, randomIp, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { queuedSignInEmails } from "../helpers/email";
import {
  donorSessionCookieFor,
  activeCampaign,
  activeOrg,
  pay,
  paidDonation,
  randomEmail,
  startDonation,
  type Campaign,
  type Org,
} from "../helpers/records";

/** The one email queued under a dedupe key, rendered as it would be sent (Stripe-mode marks off). */
async function queued(dedupeKey: string) {
  const db = await testDb();
  const rows = await db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(eq(outbox.dedupeKey, `email:${dedupeKey}`));
  expect(rows, dedupeKey).toHaveLength(1);
  const message = rows[0].payload as unknown as EmailMessage;
  return { message, locale: (message.props as { locale?: string }).locale, email: await renderEmail(message, { testMode: false }) };
}

/** The sign-in emails queued to an address, newest last. */
async function signInEmails(to: string) {
  return Promise.all((await queuedSignInEmails(to)).map(async (m) => renderEmail(m, { testMode: false })));
}

async function donorLocale(donorId: string) {
  const db = await testDb();
  const [d] = await db.select({ locale: donors.locale }).from(donors).where(eq(donors.id, donorId));
  return d.locale;
}

async function donationLocale(id: string) {
  const db = await testDb();
  const [d] = await db.select({ locale: donations.locale }).from(donations).where(eq(donations.id, id));
  return d.locale;
}

/** The text of the PDF a statement email carries, as `pdftotext` reads it (spaces folded). */
async function attachedPdfText(message: EmailMessage): Promise<string> {
  const files = await emailAttachments(await testDb(), message);
  if (!("attachments" in files)) throw new Error(`no attachment: ${files.skip}`);
  const [pdf] = files.attachments;
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf.content }).toString("utf8").replace(/\s+/g, " ");
}

let owner: TestUser;
let org: Org;
let campaign: Campaign;

beforeAll(async () => {
  ({ owner, org } = await activeOrg({ notificationEmail: "team@example.org", currency: "eur" }));
  campaign = await activeCampaign(org, owner, { title: "Clean Water" });
});

describe("the language of a gift's emails", () => {
  it("a gift given in Spanish: Spanish receipt and tribute, the donor becomes Spanish, the team's notification stays English", async () => {
    const paid = await paidDonation(campaign.id, {
      locale: "es",
      firstName: "Lucía",
      dedication: { type: "IN_HONOR", honoreeName: "Abuela Rosa", notifyEmail: randomEmail("family"), message: null },
    });
    expect(await donationLocale(paid.id)).toBe("es");
    expect(await donorLocale(paid.donorId)).toBe("es");

    const receipt = await queued(`receipt:${paid.id}`);
    expect(receipt.locale).toBe("es");
    expect(receipt.email.subject).toMatch(/^¡Gracias, Lucía! Su recibo por 25,00\s€ para Clean Water$/);
    expect(receipt.email.text).toContain("Hemos recibido su donación");
    expect(receipt.email.html).toMatch(/<html[^>]*lang="es"/);

    const tribute = await queued(`tribute:${paid.id}`);
    expect(tribute.locale).toBe("es");
    expect(tribute.email.subject).toContain("ha hecho una donación en honor de Abuela Rosa");

    const admin = await queued(`admin:${paid.id}`);
    expect(admin.locale).toBeUndefined();
    expect(admin.email.subject).toBe("New donation: €25.00 to Clean Water from Lucía Lovelace");
  });

  it("a gift without a locale follows the browser's Accept-Language (German)", async () => {
    const res = await post(
      "/api/donations",
      { campaignId: campaign.id, amount: 2500, email: randomEmail(), firstName: "Jonas" },
      { headers: { "accept-language": "de-DE,de;q=0.9,en;q=0.5" } },
    );
    expect(res.status, res.text).toBe(201);
    const started = res.body as Record<string, string>;
    await pay(started.clientSecret);
    expect(await donationLocale(started.id)).toBe("de");
    const receipt = await queued(`receipt:${started.id}`);
    expect(receipt.locale).toBe("de");
    expect(receipt.email.subject).toMatch(/^Vielen Dank, Jonas! Ihre Spendenquittung über 25,00\s€ für Clean Water$/);
    expect(await donorLocale(started.donorId)).toBe("de");
  });

  it("a gift with neither follows the organization's defaultLocale (French)", async () => {
    const own = await activeOrg({ currency: "eur" });
    const theirs = await activeCampaign(own.org, own.owner, { title: "Forêt" });
    const res = await patch(`/api/orgs/${own.org.id}`, { defaultLocale: "fr" }, { token: own.owner.token });
    expect(res.status, res.text).toBe(200);
    const paid = await paidDonation(theirs.id, { firstName: "Camille" });
    const receipt = await queued(`receipt:${paid.id}`);
    expect(receipt.locale).toBe("fr");
    expect(receipt.email.subject).toMatch(/^Merci, Camille\s! Votre reçu pour votre don de 25,00\s€ à Forêt$/);
    expect(await donorLocale(paid.donorId)).toBe("fr");
  });

  it("only a succeeded payment changes the donor's language, as for names", async () => {
    const email = randomEmail("switch");
    const first = await paidDonation(campaign.id, { email, locale: "es" });
    expect(await donorLocale(first.donorId)).toBe("es");

    // Started in German but never paid: the donor keeps Spanish.
    const started = await startDonation(campaign.id, { email, locale: "de" });
    expect(await donorLocale(first.donorId)).toBe("es");
    await pay(started.clientSecret, "4000 0000 0000 0002");
    expect(await donorLocale(first.donorId)).toBe("es");

    // Paid in German: the donor now reads German.
    const second = await paidDonation(campaign.id, { email, locale: "de" });
    expect(await donorLocale(second.donorId)).toBe("de");
  });
});

describe("the emails that follow a gift", () => {
  it("a refund confirmation is in the gift's language", async () => {
    const paid = await paidDonation(campaign.id, { locale: "fr", firstName: "Inès" });
    const res = await post(`/api/donations/${paid.id}/refund`, undefined, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const refund = await queued(`refund:${paid.id}`);
    expect(refund.locale).toBe("fr");
    expect(refund.email.subject).toMatch(/^Votre remboursement de 25,00\s€ par .+ est en cours$/);
    expect(refund.email.text).toContain("Inès, votre don a été remboursé");
  });

  it("a renewal's receipt is in the plan's first gift's language, even after the donor gave in another", async () => {
    const email = randomEmail("monthly");
    const first = await paidDonation(campaign.id, { email, amount: 2000, recurringInterval: "MONTH", locale: "de" });
    // A later one-time gift in Spanish makes the donor Spanish; the plan was started in German.
    await paidDonation(campaign.id, { email, locale: "es" });
    expect(await donorLocale(first.donorId)).toBe("es");

    const renew = await post(`/api/sandbox/subscriptions/${first.subscriptionId}/renew`, undefined, { token: owner.token });
    expect(renew.status, renew.text).toBe(202);
    const db = await testDb();
    const [renewal] = await db
      .select()
      .from(donations)
      .where(and(eq(donations.recurringPlanId, first.recurringPlanId), eq(donations.isRenewal, true)));
    expect(renewal.locale).toBe("de");
    const receipt = await queued(`receipt:${renewal.id}`);
    expect(receipt.locale).toBe("de");
    expect(receipt.email.subject).toMatch(/^Vielen Dank, Ada! Ihre monatliche Spende von 20,00\s€ für Clean Water wurde erneuert$/);
  });

  it("a plan canceled from the account: the donor's confirmation in the plan's language, the team's note in English", async () => {
    const first = await paidDonation(campaign.id, { amount: 2000, recurringInterval: "YEAR", locale: "es" });
    const cookie = await donorSessionCookieFor(first.donorId, org.id);
    const res = await post(`/api/donor/orgs/${org.slug}/recurring-plans/${first.recurringPlanId}/cancel`, undefined, {
      headers: { cookie, origin: "http://localhost:3000", "sec-fetch-site": "same-origin" },
    });
    expect(res.status, res.text).toBe(200);
    const mine = await queued(`plan-canceled:${first.recurringPlanId}`);
    expect(mine.locale).toBe("es");
    expect(mine.email.subject).toBe("Su donación anual a " + org.name + " está cancelada");
    const theirs = await queued(`plan-canceled-notice:${first.recurringPlanId}`);
    expect(theirs.locale).toBeUndefined();
    expect(theirs.email.subject).toMatch(/^Recurring gift canceled by the donor: /);
  });

  it("a year-end statement is in the donor's language, its PDF too", async () => {
    const own = await activeOrg();
    const theirs = await activeCampaign(own.org, own.owner);
    const de = await paidDonation(theirs.id, { locale: "de", firstName: "Greta" });
    const en = await paidDonation(theirs.id, { firstName: "Sam" });
    const year = new Date().getUTCFullYear();
    const res = await post(`/api/orgs/${own.org.slug}/statements`, { year }, { token: own.owner.token });
    expect(res.status, res.text).toBe(202);
    const runId = res.body.runId as string;
    const german = await queued(`statement:${runId}:${de.donorId}`);
    expect(german.locale).toBe("de");
    expect(german.email.subject).toBe(`Ihre Spendenübersicht ${year} von ${own.org.name}`);
    const english = await queued(`statement:${runId}:${en.donorId}`);
    expect(english.locale).toBe("en");
    expect(english.email.subject).toBe(`Your ${year} giving statement from ${own.org.name}`);

    const germanPdf = await attachedPdfText(german.message);
    expect(germanPdf).toContain(`Spendenübersicht für ${year}`);
    expect(germanPdf).toContain("Erstellt für Greta");
    expect(germanPdf).toMatch(new RegExp(`Gesamtbetrag ${year} \\(1 Spende\\) 25,00 \\$`));
    expect(germanPdf).not.toContain("Giving statement");
    const englishPdf = await attachedPdfText(english.message);
    expect(englishPdf).toContain(`Giving statement for ${year}`);
    expect(englishPdf).toContain(`Total given in ${year} (1 gift) $25.00`);
  });
});

describe("the donor sign-in email", () => {
  it("follows the request's locale, else its Accept-Language, whatever the donor's own language", async () => {
    const email = randomEmail("signin");
    await paidDonation(campaign.id, { email, locale: "es" });
    const ask = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post(`/api/public/orgs/${org.slug}/donor-sessions`, { email, ...body }, { ip: randomIp(), headers });

    expect((await ask({ locale: "de" })).status).toBe(202);
    expect((await signInEmails(email)).at(-1)!.subject).toBe(`Ihr Anmeldelink für Ihr Spenderkonto bei ${org.name}`);

    expect((await ask({}, { "accept-language": "fr-FR,fr;q=0.9" })).status).toBe(202);
    expect((await signInEmails(email)).at(-1)!.subject).toBe(`Votre lien de connexion à votre espace donateur ${org.name}`);

    expect((await ask({ locale: "es" })).status).toBe(202);
    const spanish = (await signInEmails(email)).at(-1)!;
    expect(spanish.subject).toBe(`Su enlace de acceso a su cuenta de donante de ${org.name}`);
    expect(spanish.text).toContain("durante 15 minutos");
  });

  it("without locale or Accept-Language: the organization's default", async () => {
    const own = await activeOrg();
    const theirs = await activeCampaign(own.org, own.owner);
    const email = randomEmail("signin");
    await paidDonation(theirs.id, { email });
    expect((await patch(`/api/orgs/${own.org.id}`, { defaultLocale: "de" }, { token: own.owner.token })).status).toBe(200);
    const res = await post(`/api/public/orgs/${own.org.slug}/donor-sessions`, { email }, { ip: randomIp() });
    expect(res.status, res.text).toBe(202);
    expect((await signInEmails(email)).at(-1)!.subject).toBe(`Ihr Anmeldelink für Ihr Spenderkonto bei ${own.org.name}`);
  });
});
