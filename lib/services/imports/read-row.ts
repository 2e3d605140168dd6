import type { ImportRowData, ImportRowError } from "@/db/schema";
import { parseMoney } from "@/lib/money";
import { methodOf, type ImportField, type Preset } from "./presets";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const pad = (n: string) => n.padStart(2, "0");

/** A calendar date and optional time of day, as an ISO instant (UTC), or undefined if it is none. */
function instant(y: string, m: string, d: string, time: string | undefined): string | undefined {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  let clock = "00:00:00";
  if (time) {
    const t = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*([AaPp][Mm])?$/.exec(time.trim());
    if (!t) return undefined;
    let h = Number(t[1]);
    if (t[4]) {
      if (h < 1 || h > 12) return undefined;
      h = (h % 12) + (t[4].toLowerCase() === "pm" ? 12 : 0);
    }
    if (h > 23 || Number(t[2]) > 59 || Number(t[3] ?? 0) > 59) return undefined;
    clock = `${pad(String(h))}:${t[2]}:${pad(t[3] ?? "0")}`;
  }
  return `${y}-${pad(m)}-${pad(d)}T${clock}.000Z`;
}

/**
 * A date cell as an ISO instant: ISO 8601 (`2024-03-05`, `2024-03-05T14:30:00Z`, `2024-03-05
 * 14:30`), US `03/05/2024` (month first), European `05.03.2024` (day first), and `25/03/2024`
 * (day first where the first number cannot be a month). A time may follow the date; without a
 * zone it is UTC. Undefined when unreadable.
 */
export function parseImportDate(value: string): string | undefined {
  const v = value.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](.+))?$/.exec(v);
  if (iso) {
    const rest = iso[4];
    if (rest && /(Z|[+-]\d{2}:?\d{2})$/i.test(rest)) {
      const d = new Date(`${iso[1]}-${iso[2]}-${iso[3]}T${rest.replace(/\s+/g, "")}`);
      return Number.isNaN(d.getTime()) || !instant(iso[1], iso[2], iso[3], undefined) ? undefined : d.toISOString();
    }
    return instant(iso[1], iso[2], iso[3], rest);
  }
  const other = /^(\d{1,2})([./])(\d{1,2})\2(\d{4})(?:,?\s+(.+))?$/.exec(v);
  if (!other) return undefined;
  const [, a, sep, b, y, time] = other;
  // Dots are European (day first); slashes are US (month first) unless the first number is over 12.
  const dayFirst = sep === "." || Number(a) > 12;
  return dayFirst ? instant(y, b, a, time) : instant(y, a, b, time);
}

type Resolve = {
  currency: string;
  /** The campaign a cell names (slug, or for other platforms' files also its title), or undefined. */
  campaign: (name: string) => string | undefined;
  /** The campaign rows without one go to. */
  defaultCampaignId: string | undefined;
};

export type ReadRow = { data: ImportRowData; errors: [] } | { data?: undefined; errors: ImportRowError[] };

/** One data row of the file (`row`: its number, the header being 1), read through the preset into what will be applied. */
export function readRow(preset: Preset, at: Partial<Record<ImportField, number>>, cells: string[], row: number, ctx: Resolve): ReadRow {
  const cell = (f: ImportField) => {
    const i = at[f];
    return i === undefined ? "" : (cells[i] ?? "").trim();
  };
  const errors: ImportRowError[] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ row, field, code, message });

  if (preset.paidStatuses && at.status !== undefined) {
    const status = cell("status");
    if (!preset.paidStatuses.includes(status.toLowerCase()))
      fail("status", "not_paid", `Only completed payments are imported (status "${status}")`);
  }

  const email = cell("email");
  if (!email) fail("email", "required", "An email is required");
  else if (email.length > 320 || !EMAIL.test(email)) fail("email", "invalid_email", "Invalid email address");

  const amountText = cell("amount");
  let amountCents = 0;
  if (!amountText) fail("amount", "required", "An amount is required");
  else {
    const parsed = parseMoney(amountText, ctx.currency, { locale: "en-US" });
    if (!parsed.ok) fail("amount", parsed.code === "unreadable" ? "invalid_amount" : parsed.code, parsed.message);
    else if (!parsed.minor || parsed.minor <= 0) fail("amount", "too_small", "The amount must be above zero");
    else if (parsed.minor > 100_000_000) fail("amount", "too_large", "That amount is too large");
    else amountCents = parsed.minor;
  }

  const dateText = cell("date");
  let receivedAt: string | undefined;
  if (!dateText) fail("date", "required", "A date is required");
  else {
    receivedAt = parseImportDate(dateText);
    if (!receivedAt) fail("date", "invalid_date", "Use a date like 2024-03-05, 03/05/2024 or 05.03.2024");
    else if (new Date(receivedAt).getTime() > Date.now() + 86_400_000) fail("date", "future_date", "The date is in the future");
    else if (new Date(receivedAt).getUTCFullYear() < 1900) fail("date", "too_old", "The date must be in 1900 or later");
  }

  const campaignText = cell("campaign");
  const campaignId = campaignText ? (ctx.campaign(campaignText) ?? ctx.defaultCampaignId) : ctx.defaultCampaignId;
  if (!campaignId) {
    if (campaignText) fail("campaign", "campaign_not_found", `No campaign "${campaignText}" in this organization`);
    else fail("campaign", "required", "A campaign is required (or choose one for rows without one)");
  }

  const methodText = cell("method");
  const method = methodText ? methodOf(methodText) : preset.defaultMethod;
  if (!method) fail("method", "invalid_method", `Unknown method "${methodText}"`);

  const externalId = cell("externalId") || null;
  if (externalId && externalId.length > 200) fail("external_id", "too_long", "At most 200 characters");
  const reference = cell("reference").slice(0, 200) || null;

  let firstName = cell("firstName") || null;
  let lastName = cell("lastName") || null;
  if (!firstName && !lastName && cell("fullName")) {
    const parts = cell("fullName").split(/\s+/);
    lastName = parts.length > 1 ? parts.pop()! : null;
    firstName = parts.join(" ");
  }

  if (errors.length > 0) return { errors };
  return {
    data: {
      email,
      firstName: firstName?.slice(0, 100) ?? null,
      lastName: lastName?.slice(0, 100) ?? null,
      amountCents,
      receivedAt: receivedAt!,
      campaignId: campaignId!,
      method: method!,
      reference,
      externalId,
    },
    errors: [],
  };
}
