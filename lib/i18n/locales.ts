/**
 * The languages donors can read Goodfund in, and how one is chosen for a request: `?lang=`, else
 * the browser's `Accept-Language`, else the organization's `defaultLocale`. Pure and client-safe.
 */
export const LOCALES = ["en", "es", "fr", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** Each language's name in itself, for a language menu. */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", es: "Español", fr: "Français", de: "Deutsch" };

/**
 * Set by proxy.ts on the requests for an organization's public pages: the language chosen for
 * this request. A client's own value is always dropped first.
 */
export const LOCALE_HEADER = "x-goodfund-locale";
/** Set by proxy.ts when the language came from `?lang=`, so links can carry the choice on. */
export const LANG_PARAM_HEADER = "x-goodfund-lang-param";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** The supported language of a BCP 47 tag ("es-MX" → "es"), or null. */
export function localeFromTag(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(primary) ? primary : null;
}

/**
 * The first supported language of an `Accept-Language` header by the client's own preference
 * (q-values, then order), or null when it names none we have. Malformed parts are skipped.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | null {
  if (!acceptLanguage) return null;
  const ranked: { locale: Locale; q: number; order: number }[] = [];
  acceptLanguage
    .slice(0, 512)
    .split(",")
    .forEach((part, order) => {
      const [tag, ...params] = part.split(";");
      const locale = localeFromTag(tag);
      if (!locale) return;
      let q = 1;
      for (const param of params) {
        const [name, value] = param.split("=").map((s) => s.trim());
        if (name === "q") q = Number(value);
      }
      if (!Number.isFinite(q) || q <= 0 || q > 1) return;
      ranked.push({ locale, q, order });
    });
  ranked.sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.locale ?? null;
}

/** The request's language: `?lang=`, else `Accept-Language`, else the organization's default. */
export function chooseLocale(input: { lang?: string | null; acceptLanguage?: string | null; orgDefault?: string | null }): Locale {
  return (
    (isLocale(input.lang) ? input.lang : null) ??
    negotiateLocale(input.acceptLanguage) ??
    (isLocale(input.orgDefault) ? input.orgDefault : DEFAULT_LOCALE)
  );
}

/**
 * The `Intl` tag a language formats dates, numbers and money with. English keeps `en-US`, what
 * every page used before languages existed.
 */
export function intlTag(locale: Locale): string {
  return locale === "en" ? "en-US" : locale;
}
