"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { LOCALES, LOCALE_NAMES } from "@/lib/i18n/locales";
import styles from "./language-menu.module.css";

/**
 * The page in another language: a link per language, each named in itself, to this very page
 * with `?lang=` (its other parameters, such as the thank-you page's donation, kept). Plain links,
 * so the whole page, its frame included, renders again in the language chosen.
 */
export function LanguageMenu() {
  const pathname = usePathname();
  const search = useSearchParams();
  return <LanguageLinks path={pathname ?? ""} search={search?.toString() ?? ""} />;
}

/** The menu for the page at `path` with the query `search` (the donate page gives them, outside the App Router). */
export function LanguageLinks({ path, search }: { path: string; search: string }) {
  const { locale } = useLocale();
  const t = useTranslations("common");
  const href = (lang: string) => {
    const params = new URLSearchParams(search);
    params.set("lang", lang);
    return `${path}?${params.toString()}`;
  };
  return (
    <nav className={styles.menu} aria-labelledby="language-menu-label">
      <span id="language-menu-label" className={styles.label}>
        {t("language")}
      </span>
      <ul className={styles.list}>
        {LOCALES.map((l) => (
          <li key={l}>
            <a
              className={styles.link}
              href={href(l)}
              hrefLang={l}
              lang={l}
              aria-current={l === locale ? "true" : undefined}
              rel={l === locale ? undefined : "alternate"}
            >
              {LOCALE_NAMES[l]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
