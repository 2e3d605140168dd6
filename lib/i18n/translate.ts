import { createFormatter, createTranslator } from "use-intl/core";
import { messagesFor, type Messages, type Namespace } from "./catalog";
import { intlTag, type Locale } from "./locales";

/**
 * Translators for code that renders outside a React tree or before one (server pages, emails,
 * the worker): `t("key", { values })` over one namespace of a language's catalog. Dates and
 * money in a message (`{date, date, long}`, `{amount}` preformatted by lib/money.ts) follow the
 * language; times are shown in UTC unless the caller passes a zone.
 */
export function translator<N extends Namespace>(locale: Locale, namespace: N, timeZone = "UTC") {
  return createTranslator({ locale: intlTag(locale), messages: messagesFor(locale) as Messages, namespace, timeZone });
}

/** Dates, numbers and lists in the language's conventions. */
export function formatter(locale: Locale, timeZone = "UTC") {
  return createFormatter({ locale: intlTag(locale), timeZone });
}
