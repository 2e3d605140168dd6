import { headers } from "next/headers";
import { CUSTOM_DOMAIN_HEADER, EMBED_HEADER } from "@/lib/hosted-urls/routes";
import { intlTag } from "@/lib/i18n/locales";
import { getLangParam, getRequestLocale } from "@/lib/i18n/request";
import { translator } from "@/lib/i18n/translate";

/**
 * The path prefix of the organization's public pages as this request reached them: "" on its
 * custom domain (`/donate/{slug}`), `/o/{orgSlug}` on the app's host. proxy.ts sets the header.
 */
export async function orgBasePath(orgSlug: string): Promise<string> {
  return (await headers()).get(CUSTOM_DOMAIN_HEADER) === "1" ? "" : `/o/${orgSlug}`;
}

/** Whether this request is for the embeddable form's pages (proxy.ts sets the header), shown in another site's frame. */
export async function isEmbedRequest(): Promise<boolean> {
  return (await headers()).get(EMBED_HEADER) === "1";
}

/**
 * The language of the public page being rendered: its words (the `donate` namespace), its `Intl`
 * tag for money, counts and dates, and the `?lang=` its links carry on (null when the language
 * came from elsewhere).
 */
export async function pageLanguage() {
  const [locale, langParam] = await Promise.all([getRequestLocale(), getLangParam()]);
  return { locale, langParam, tag: intlTag(locale), t: translator(locale, "donate") };
}

export type PageLanguage = Awaited<ReturnType<typeof pageLanguage>>;
