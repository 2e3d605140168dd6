/**
 * ISO 3166-1 alpha-2 country codes, from the ICU data Node and browsers ship (Intl.DisplayNames
 * names every assigned region). Codes ICU also names that are not countries are left out.
 */
const NOT_COUNTRIES = new Set(["EU", "EZ", "QO", "UN", "XA", "XB", "ZZ"]);

let codes: string[] | null = null;

/** Every country code, sorted by code. */
export function countryCodes(): string[] {
  if (codes) return codes;
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
  const found: string[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = names.of(code);
      if (name && name !== code && name !== "Unknown Region" && !NOT_COUNTRIES.has(code)) found.push(code);
    }
  }
  codes = found;
  return codes;
}

export function isCountryCode(code: string): boolean {
  return countryCodes().includes(code);
}

/** The country's name in `locale` (its code when the runtime has no name for it). */
export function countryName(code: string, locale = "en"): string {
  return new Intl.DisplayNames([locale], { type: "region", fallback: "code" }).of(code) ?? code;
}
