import deAccount from "./messages/de/account.json";
import deCommon from "./messages/de/common.json";
import deDonate from "./messages/de/donate.json";
import deEmails from "./messages/de/emails.json";
import enAccount from "./messages/en/account.json";
import enCommon from "./messages/en/common.json";
import enDonate from "./messages/en/donate.json";
import enEmails from "./messages/en/emails.json";
import esAccount from "./messages/es/account.json";
import esCommon from "./messages/es/common.json";
import esDonate from "./messages/es/donate.json";
import esEmails from "./messages/es/emails.json";
import frAccount from "./messages/fr/account.json";
import frCommon from "./messages/fr/common.json";
import frDonate from "./messages/fr/donate.json";
import frEmails from "./messages/fr/emails.json";
import { DEFAULT_LOCALE, LOCALES, type Locale } from "./locales";

/**
 * The message catalogs (ICU MessageFormat, lib/i18n/messages/{locale}/{namespace}.json), one
 * namespace a part of the product: `common`, `donate` (donate, embed and thank-you pages),
 * `account` (the donor account pages) and `emails` (every email a donor receives). English is the
 * reference: a test fails when another language lacks one of its keys, and at run time a missing
 * message falls back to English rather than to its key.
 */
const english = { common: enCommon, donate: enDonate, account: enAccount, emails: enEmails };
export type Messages = typeof english;
export type Namespace = keyof Messages;

type Tree = { [key: string]: string | Tree };

/** The catalogs as written, for the completeness test. */
export const rawCatalogs: Record<Locale, Record<Namespace, Tree>> = {
  en: english,
  es: { common: esCommon, donate: esDonate, account: esAccount, emails: esEmails },
  fr: { common: frCommon, donate: frDonate, account: frAccount, emails: frEmails },
  de: { common: deCommon, donate: deDonate, account: deAccount, emails: deEmails },
};

function withFallback(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const fallback = base[key];
    out[key] = typeof value === "object" && typeof fallback === "object" ? withFallback(fallback, value) : value;
  }
  return out;
}

const catalogs = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    locale === DEFAULT_LOCALE ? english : (withFallback(english as Tree, rawCatalogs[locale] as Tree) as Messages),
  ]),
) as Record<Locale, Messages>;

/** A language's messages, English filling any gap; only `namespaces` when given (what a page sends its client). */
export function messagesFor(locale: Locale, namespaces?: readonly Namespace[]): Messages {
  const all = catalogs[locale];
  if (!namespaces) return all;
  return Object.fromEntries(namespaces.map((ns) => [ns, all[ns]])) as Messages;
}
