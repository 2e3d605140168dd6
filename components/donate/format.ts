/**
 * Counts, dates and text shared by the donate pages (server) and the donate form (client); money
 * is lib/money.ts. Pure. Each takes the page's `Intl` tag (lib/i18n/locales.ts `intlTag`), so the
 * server's HTML and the client's renders agree; English (en-US) is for callers outside the
 * public pages (the dashboard's forms).
 */

const ENGLISH = "en-US";

export function formatCount(n: number, locale: string = ENGLISH): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** A whole percentage: "42%", "42 %" (de, fr). */
export function formatPercent(pct: number, locale: string = ENGLISH): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0 }).format(pct / 100);
}

const RELATIVE_UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 hours ago", "hace 3 horas", "now". */
export function relativeTime(iso: string, now: number, locale: string = ENGLISH): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of RELATIVE_UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return rtf.format(0, "second");
}

/** A date and time in the organization's time zone `timeZone`, naming the zone ("7:30 PM EST"). */
export function formatDateTime(iso: string, locale: string = ENGLISH, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** The date of an instant in the organization's time zone `timeZone`. */
export function formatDate(iso: string, locale: string = ENGLISH, timeZone = "UTC"): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone }).format(new Date(iso));
}

/** The iframe address for a YouTube or Vimeo link, or null for any other video URL. */
export function videoEmbedUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const host = u.hostname.replace(/^(www\.|m\.)/, "");
  const id = (s: string | undefined | null) => (s && /^[\w-]{6,20}$/.test(s) ? s : null);
  if (host === "youtu.be") {
    const v = id(u.pathname.split("/")[1]);
    return v ? `https://www.youtube-nocookie.com/embed/${v}` : null;
  }
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    const parts = u.pathname.split("/").filter(Boolean);
    const v = parts[0] === "watch" ? id(u.searchParams.get("v")) : ["embed", "shorts", "live"].includes(parts[0]) ? id(parts[1]) : null;
    return v ? `https://www.youtube-nocookie.com/embed/${v}` : null;
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const v = u.pathname
      .split("/")
      .filter(Boolean)
      .find((p) => /^\d{5,12}$/.test(p));
    return v ? `https://player.vimeo.com/video/${v}` : null;
  }
  return null;
}

/** Plain text split into paragraphs (blank lines) of lines (single newlines). */
export function paragraphs(text: string): string[][] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
    )
    .filter((p) => p.length > 0);
}

/** "1:1", "2:1", "1.5:1" ("1,5:1" in de); below 1:1 a percentage ("50%"). */
export function matchRatioLabel(ratioPct: number, locale: string = ENGLISH): string {
  if (ratioPct >= 100) return `${formatCount(ratioPct / 100, locale)}:1`;
  return formatPercent(ratioPct, locale);
}
