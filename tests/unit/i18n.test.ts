import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { messagesFor, rawCatalogs } from "@/lib/i18n/catalog";
import { withLang } from "@/lib/i18n/href";
import { LOCALES, chooseLocale, negotiateLocale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

/** The argument names an ICU message uses ({name}, {count, plural, ...}, <tag>...</tag>), sorted. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      names.add(el.value);
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const option of Object.values(el.options)) walk(option.value);
      if (el.type === TYPE.tag) walk(el.children);
    }
  };
  walk(parse(message));
  return [...names].sort();
}

const english = rawCatalogs.en;

describe("message catalogs", () => {
  it("English has messages in every namespace a page or email uses", () => {
    for (const [ns, tree] of Object.entries(english)) expect(leaves(tree).size, ns).toBeGreaterThan(0);
  });

  for (const locale of LOCALES.filter((l) => l !== "en")) {
    it(`${locale} has every key English has, and no key English lacks`, () => {
      for (const [ns, tree] of Object.entries(english)) {
        const theirs = leaves(rawCatalogs[locale][ns as keyof typeof english]);
        const missing = [...leaves(tree).keys()].filter((k) => !theirs.has(k));
        expect(missing, `${locale}/${ns}.json lacks`).toEqual([]);
        const extra = [...theirs.keys()].filter((k) => !leaves(tree).has(k));
        expect(extra, `${locale}/${ns}.json has keys English lacks`).toEqual([]);
      }
    });

    it(`${locale} messages are valid ICU and use the same arguments as English`, () => {
      for (const [ns, tree] of Object.entries(english)) {
        const theirs = leaves(rawCatalogs[locale][ns as keyof typeof english]);
        for (const [key, message] of leaves(tree)) {
          const translated = theirs.get(key);
          if (translated === undefined) continue;
          expect(argumentsOf(translated), `${locale}/${ns}.json ${key}`).toEqual(argumentsOf(message));
        }
      }
    });
  }

  it("English messages are valid ICU", () => {
    for (const tree of Object.values(english)) for (const message of leaves(tree).values()) expect(() => parse(message)).not.toThrow();
  });

  it("a language's catalog falls back to English for a key it lacks", () => {
    // Every key exists in every language (tested above), so check the merge itself on the common namespace.
    for (const locale of LOCALES) {
      expect(Object.keys(leaves(messagesFor(locale).common as Tree))).toEqual(Object.keys(leaves(english.common)));
    }
  });

  it("translators write in the chosen language", () => {
    const names = LOCALES.map((l) => translator(l, "common")("language"));
    expect(new Set(names).size).toBe(LOCALES.length);
    expect(translator("es", "common")("language")).toBe("Idioma");
    expect(translator("de", "common")("languageNames.fr")).toBe("Französisch");
  });
});

describe("choosing a language", () => {
  it("reads Accept-Language by q-value, then order, skipping what we lack", () => {
    expect(negotiateLocale("es-MX,es;q=0.9,en;q=0.8")).toBe("es");
    expect(negotiateLocale("ja,de;q=0.5,fr;q=0.7")).toBe("fr");
    expect(negotiateLocale("en;q=0.1, de")).toBe("de");
    expect(negotiateLocale("fr;q=0, de;q=0.2")).toBe("de");
    expect(negotiateLocale("ja, zh-CN")).toBeNull();
    expect(negotiateLocale("*")).toBeNull();
    expect(negotiateLocale("es;q=abc, ;;;,")).toBeNull();
    expect(negotiateLocale("")).toBeNull();
    expect(negotiateLocale(null)).toBeNull();
  });

  it("takes ?lang= first, then Accept-Language, then the organization's default", () => {
    expect(chooseLocale({ lang: "de", acceptLanguage: "es", orgDefault: "fr" })).toBe("de");
    expect(chooseLocale({ lang: "xx", acceptLanguage: "es", orgDefault: "fr" })).toBe("es");
    expect(chooseLocale({ lang: null, acceptLanguage: "ja", orgDefault: "fr" })).toBe("fr");
    expect(chooseLocale({ lang: "ES", acceptLanguage: null, orgDefault: "nonsense" })).toBe("en");
  });

  it("carries ?lang= on in links only when the visitor chose it that way", () => {
    expect(withLang("/o/acme/donate/x/thank-you?donation=d1", "fr")).toBe("/o/acme/donate/x/thank-you?donation=d1&lang=fr");
    expect(withLang("/o/acme/account#plans", "es")).toBe("/o/acme/account?lang=es#plans");
    expect(withLang("/o/acme/account?lang=de", "es")).toBe("/o/acme/account?lang=de");
    expect(withLang("/o/acme/account", null)).toBe("/o/acme/account");
  });
});
