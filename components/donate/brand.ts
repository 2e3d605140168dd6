/**
 * Brand colours for the hosted donate pages: the campaign's colour (else the organization's,
 * else Goodfund green), with the variants accessibility needs. Pure, so it runs on the server
 * (page styles) and in tests.
 */
export const DEFAULT_BRAND = "#1a7f5a";

const WHITE = "#ffffff";
const DARK_INK = "#0b0f0d";

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? m[1].replace(/./g, (c) => c + c) : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function relativeLuminance(hex: string): number {
  const rgb = parseHex(hex) ?? [0, 0, 0];
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio between two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** The colour darkened (mixed towards black) just enough to reach `target` contrast with white. */
export function darkenForContrast(hex: string, target: number): string {
  return darken(hex, target).color;
}

function darken(hex: string, target: number, backgrounds: string[] = [WHITE]): { color: string; percent: number } {
  const rgb = parseHex(hex);
  if (!rgb) return { color: DEFAULT_BRAND, percent: 0 };
  for (let k = 0; k <= 100; k += 2) {
    const c = toHex(rgb.map((v) => v * (1 - k / 100)) as Rgb);
    if (backgrounds.every((bg) => contrastRatio(c, bg) >= target)) return { color: c, percent: k };
  }
  return { color: "#000000", percent: 100 };
}

/** How far a fill may be darkened to carry white text before it stops looking like the brand. */
const MAX_FILL_DARKENING = 25;

export type BrandPalette = {
  /** Fill for buttons, the selected amount and the thermometer. */
  brand: string;
  /** Text on a `brand` fill: white when it reads (4.5:1), else near-black. */
  ink: string;
  /** Brand-coloured text, links and focus rings on white and on `tint`: at least 4.5:1. */
  text: string;
  /** Brand-coloured shapes on white (progress fill, borders): at least 3:1. */
  strong: string;
  /** A pale tint for selected backgrounds and banners. */
  tint: string;
};

/**
 * The palette for a brand colour. White text needs 4.5:1 on the fill: a mid-tone colour is
 * darkened slightly until it has that; a light one (yellow, pastel) keeps its fill and gets
 * near-black text instead, since darkening it that far would lose the colour.
 */
export function brandPalette(...candidates: (string | null | undefined)[]): BrandPalette {
  const chosen = candidates.map((c) => (c && parseHex(c) ? toHex(parseHex(c)!) : null)).find(Boolean) ?? DEFAULT_BRAND;
  const forWhite = darken(chosen, 4.5);
  const brand = forWhite.percent <= MAX_FILL_DARKENING ? forWhite.color : chosen;
  const ink = contrastRatio(brand, WHITE) >= 4.5 ? WHITE : DARK_INK;
  const rgb = parseHex(chosen)!;
  const tint = toHex(rgb.map((v) => v * 0.1 + 255 * 0.9) as Rgb);
  // Brand text also sits on tinted panels (the payment step's review box), so it must read on both.
  return { brand, ink, text: darken(chosen, 4.5, [WHITE, tint]).color, strong: darkenForContrast(chosen, 3), tint };
}

/** The palette as CSS custom properties for a wrapper element's `style`. */
export function brandStyle(p: BrandPalette): Record<string, string> {
  return {
    "--brand": p.brand,
    "--brand-ink": p.ink,
    "--brand-text": p.text,
    "--brand-strong": p.strong,
    "--brand-tint": p.tint,
  };
}
