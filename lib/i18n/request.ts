import { headers } from "next/headers";
import { messagesFor, type Namespace } from "./catalog";
import { DEFAULT_LOCALE, LANG_PARAM_HEADER, LOCALE_HEADER, isLocale, type Locale } from "./locales";
import { translator } from "./translate";

/**
 * The language of the page being rendered, as proxy.ts chose it (`?lang=`, `Accept-Language`, the
 * organization's default). Pages outside an organization's public site are English.
 */
export async function getRequestLocale(): Promise<Locale> {
  const value = (await headers()).get(LOCALE_HEADER);
  return isLocale(value) ? value : DEFAULT_LOCALE;
}

/** The `?lang=` the request carried, if any: links to the site's other pages carry it on. */
export async function getLangParam(): Promise<Locale | null> {
  const value = (await headers()).get(LANG_PARAM_HEADER);
  return isLocale(value) ? value : null;
}

/** A translator over one namespace in the request's language, for server components. */
export async function getTranslations<N extends Namespace>(namespace: N) {
  return translator(await getRequestLocale(), namespace);
}

export { messagesFor };
