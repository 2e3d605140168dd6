/**
 * Money as people type it ("25", "1,250.50") and as the API keeps it (integer cents). Parsed as
 * text, digit by digit, never through floating point: "0.29" is 29 cents, not 28.999….
 */
export type ParsedMoney = { ok: true; cents: number | null } | { ok: false; message: string };

export function parseMoney(input: string): ParsedMoney {
  let s = input.trim().replace(/\s/g, "").replace(/^\$/, "");
  if (s === "") return { ok: true, cents: null };
  // Commas only as thousands separators ("1,250.50"); "25,50" is refused rather than read as 2550.
  if (s.includes(",")) {
    if (!/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(s)) return { ok: false, message: "Use a dot for cents, like 25.50" };
    s = s.replace(/,/g, "");
  }
  const m = /^(\d+)(?:\.(\d{0,2}))?$/.exec(s);
  if (!m) {
    if (/^\d*\.\d{3,}$/.test(s)) return { ok: false, message: "Use at most two decimal places" };
    if (s.startsWith("-")) return { ok: false, message: "Must be a positive amount" };
    return { ok: false, message: "Enter an amount like 25 or 25.50" };
  }
  const whole = m[1].replace(/^0+(?=\d)/, "");
  if (whole.length > 10) return { ok: false, message: "That amount is too large" };
  const frac = (m[2] ?? "").padEnd(2, "0");
  return { ok: true, cents: Number(whole) * 100 + Number(frac) };
}

/** Cents → the text a money input shows: "25", "25.50" (no currency sign, no grouping). */
export function centsToInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "";
  const whole = Math.trunc(cents / 100);
  const frac = Math.abs(cents % 100);
  return frac === 0 ? String(whole) : `${whole}.${String(frac).padStart(2, "0")}`;
}

/** "$1,250" / "$1,250.50" for display; whole amounts drop the cents. */
export function formatMoney(cents: number, currency = "usd"): string {
  const code = currency.toUpperCase();
  const whole = cents % 100 === 0;
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency: code,
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${code}`;
  }
}

/** The sign shown before money inputs. */
export function currencyPrefix(currency = "usd"): string {
  const code = currency.toUpperCase();
  const signs: Record<string, string> = { USD: "$", CAD: "$", AUD: "$", NZD: "$", EUR: "€", GBP: "£" };
  return signs[code] ?? code;
}
