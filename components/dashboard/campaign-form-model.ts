import { isoToWallInput, wallInputToIso } from "@/lib/time-zone";
import type { FieldErrors } from "react-hook-form";
import { z } from "zod";
import type { FieldWords } from "@/components/forms/issue-text";
import { maxItemsOf } from "@/components/forms/schema-limits";
import { createCampaignBody, DEFAULT_MAX_TICKETS_PER_ORDER, updateCampaignBody, type CampaignView } from "@/lib/schemas/campaigns";
import { minorToInput, parseMoney } from "@/lib/money";

/**
 * The campaign editor's model: what each input holds (text as typed), how it becomes the API's
 * value (amounts in the organization's currency → integer minor units, by that currency's
 * decimals: "25.50" usd → 2550, "5000" jpy → 5000; local date-times → ISO 8601), and the rules it
 * is checked with: the API's own zod schemas for each field, after that conversion.
 */
export const MONEY_KEYS = ["goalAmountCents", "matchingMaxCents", "minAmountCents", "ticketPriceCents"] as const;
export const INT_KEYS = ["matchingRatioPct", "ticketCapacity", "maxTicketsPerOrder"] as const;
/** Whole-number fields that can't be left empty (the others empty means null). */
const REQUIRED_INT_KEYS: readonly string[] = ["matchingRatioPct", "maxTicketsPerOrder"];
export const DATE_KEYS = ["startDate", "endDate", "scheduledPublishAt"] as const;
export const BOOL_KEYS = [
  "showDonorRoll",
  "showGoal",
  "allowCustomAmount",
  "allowRecurring",
  "monthlyUpsell",
  "matchingEnabled",
  "allowSupporterPages",
  "supporterPagesNeedApproval",
  "allowTeams",
] as const;
export const TEXT_KEYS = [
  "title",
  "slug",
  "description",
  "coverImageUrl",
  "videoUrl",
  "color",
  "matchingOrgName",
  "venue",
  "type",
  "parentCampaignId",
] as const;

type MoneyKey = (typeof MONEY_KEYS)[number];
type IntKey = (typeof INT_KEYS)[number];
type DateKey = (typeof DATE_KEYS)[number];
type BoolKey = (typeof BOOL_KEYS)[number];
type TextKey = (typeof TEXT_KEYS)[number];
export type FieldKey = MoneyKey | IntKey | DateKey | BoolKey | TextKey | "suggestedAmounts";

export type FormValues = Record<MoneyKey | IntKey | DateKey | TextKey, string> & Record<BoolKey, boolean> & { suggestedAmounts: string[] };

/** Top-to-bottom order of the form: the first invalid field in it gets the focus. */
export const FIELD_ORDER: FieldKey[] = [
  "title",
  "slug",
  "type",
  "parentCampaignId",
  "allowSupporterPages",
  "supporterPagesNeedApproval",
  "allowTeams",
  "description",
  "goalAmountCents",
  "showGoal",
  "suggestedAmounts",
  "allowCustomAmount",
  "minAmountCents",
  "allowRecurring",
  "monthlyUpsell",
  "ticketPriceCents",
  "ticketCapacity",
  "maxTicketsPerOrder",
  "venue",
  "matchingEnabled",
  "matchingOrgName",
  "matchingMaxCents",
  "matchingRatioPct",
  "startDate",
  "endDate",
  "scheduledPublishAt",
  "coverImageUrl",
  "videoUrl",
  "color",
  "showDonorRoll",
];

/** The API's defaults for a new campaign, the suggested amounts written in `currency`. */
export const defaultValues = (currency: string): FormValues => ({
  title: "",
  slug: "",
  description: "",
  type: "DONATION",
  parentCampaignId: "",
  goalAmountCents: "",
  coverImageUrl: "",
  videoUrl: "",
  color: "",
  matchingOrgName: "",
  matchingMaxCents: "",
  minAmountCents: "",
  ticketPriceCents: "",
  matchingRatioPct: "100",
  ticketCapacity: "",
  maxTicketsPerOrder: String(DEFAULT_MAX_TICKETS_PER_ORDER),
  venue: "",
  startDate: "",
  endDate: "",
  scheduledPublishAt: "",
  showDonorRoll: true,
  showGoal: true,
  allowCustomAmount: true,
  allowRecurring: true,
  monthlyUpsell: true,
  matchingEnabled: false,
  allowSupporterPages: true,
  supporterPagesNeedApproval: false,
  allowTeams: true,
  // $25, $50, $100; ¥2,500, ¥5,000, ¥10,000 in a zero-decimal currency (the API's own default amounts).
  suggestedAmounts: [2500, 5000, 10000].map((a) => minorToInput(a, currency)),
});

/** Form values of an existing campaign; dates as local times of the organization's time zone. */
export function valuesFromCampaign(c: CampaignView, currency: string, timeZone: string): FormValues {
  return {
    title: c.title,
    slug: c.slug,
    description: c.description ?? "",
    type: c.type,
    parentCampaignId: c.parentCampaignId ?? "",
    goalAmountCents: minorToInput(c.goalAmountCents, currency),
    coverImageUrl: c.coverImageUrl ?? "",
    videoUrl: c.videoUrl ?? "",
    color: c.color ?? "",
    matchingOrgName: c.matchingOrgName ?? "",
    matchingMaxCents: minorToInput(c.matchingMaxCents, currency),
    minAmountCents: minorToInput(c.minAmountCents, currency),
    ticketPriceCents: minorToInput(c.ticketPriceCents, currency),
    matchingRatioPct: String(c.matchingRatioPct),
    ticketCapacity: c.ticketCapacity === null ? "" : String(c.ticketCapacity),
    maxTicketsPerOrder: String(c.maxTicketsPerOrder),
    venue: c.venue ?? "",
    startDate: isoToLocalInput(c.startDate, timeZone),
    endDate: isoToLocalInput(c.endDate, timeZone),
    scheduledPublishAt: isoToLocalInput(c.scheduledPublishAt, timeZone),
    showDonorRoll: c.showDonorRoll,
    showGoal: c.showGoal,
    allowCustomAmount: c.allowCustomAmount,
    allowRecurring: c.allowRecurring,
    monthlyUpsell: c.monthlyUpsell,
    matchingEnabled: c.matchingEnabled,
    allowSupporterPages: c.allowSupporterPages,
    supporterPagesNeedApproval: c.supporterPagesNeedApproval,
    allowTeams: c.allowTeams,
    suggestedAmounts: c.suggestedAmounts.map((a) => minorToInput(a, currency)),
  };
}

/** ISO 8601 → the `datetime-local` input's value in the organization's time zone. */
export function isoToLocalInput(iso: string | null, timeZone: string): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return "";
  return isoToWallInput(timeZone, iso);
}

/** A `datetime-local` value (the organization's time zone) → ISO 8601 UTC; null when empty. */
export function localInputToIso(value: string, timeZone: string): { ok: true; value: string | null } | { ok: false; message: string } {
  if (value.trim() === "") return { ok: true, value: null };
  const iso = wallInputToIso(timeZone, value.trim());
  return iso === null ? { ok: false, message: "Enter a date and time" } : { ok: true, value: iso };
}

/** Which fields apply, given the type and the toggles: hidden ones are neither validated nor sent. */
export function visibleKeys(v: FormValues, mode: "create" | "edit"): FieldKey[] {
  return FIELD_ORDER.filter((k) => {
    if (k === "parentCampaignId") return v.type === "PEER_TO_PEER";
    // Supporters start pages and teams under a main peer-to-peer campaign, not under a fundraiser's page.
    if (k === "allowSupporterPages") return v.type === "PEER_TO_PEER" && v.parentCampaignId === "";
    if (k === "supporterPagesNeedApproval" || k === "allowTeams")
      return v.type === "PEER_TO_PEER" && v.parentCampaignId === "" && v.allowSupporterPages;
    if (k === "ticketPriceCents" || k === "ticketCapacity" || k === "maxTicketsPerOrder" || k === "venue") return v.type === "EVENT";
    if (k === "matchingOrgName" || k === "matchingMaxCents" || k === "matchingRatioPct") return v.matchingEnabled;
    // Once a campaign exists, scheduling is done from its status panel.
    if (k === "scheduledPublishAt") return mode === "create";
    return true;
  });
}

type Converted = { ok: true; value: unknown } | { ok: false; errors: Record<string, string> };

/** The API value of one field as typed (`raw`, the input's value; money in `currency`), or the reason it can't be one. */
export function toApiValue(key: FieldKey, raw: unknown, mode: "create" | "edit", currency: string, timeZone = "UTC"): Converted {
  if ((MONEY_KEYS as readonly string[]).includes(key)) {
    const m = parseMoney(String(raw), currency);
    return m.ok ? { ok: true, value: m.minor } : { ok: false, errors: { [key]: m.message } };
  }
  if ((INT_KEYS as readonly string[]).includes(key)) {
    const s = String(raw).trim();
    if (s === "") return REQUIRED_INT_KEYS.includes(key) ? { ok: false, errors: { [key]: "Required" } } : { ok: true, value: null };
    if (!/^-?\d+$/.test(s)) return { ok: false, errors: { [key]: "Enter a whole number" } };
    return { ok: true, value: Number(s) };
  }
  if ((DATE_KEYS as readonly string[]).includes(key)) {
    const d = localInputToIso(String(raw), timeZone);
    return d.ok ? { ok: true, value: d.value } : { ok: false, errors: { [key]: d.message } };
  }
  if ((BOOL_KEYS as readonly string[]).includes(key)) return { ok: true, value: raw };
  if (key === "suggestedAmounts") {
    const errors: Record<string, string> = {};
    const cents: number[] = [];
    (raw as string[]).forEach((text, i) => {
      if (text.trim() === "") {
        errors[`suggestedAmounts.${i}`] = "Enter an amount or remove it";
        return;
      }
      const m = parseMoney(text, currency);
      if (!m.ok) errors[`suggestedAmounts.${i}`] = m.message;
      else cents.push(m.minor ?? 0);
    });
    return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: cents };
  }
  const text = String(raw);
  if (key === "title") return { ok: true, value: text };
  // An empty slug on a new campaign means "make one from the title"; on an existing one it is an error.
  if (key === "slug") return { ok: true, value: text.trim() === "" && mode === "create" ? undefined : text.trim() };
  if (key === "type") return { ok: true, value: text };
  return { ok: true, value: text.trim() === "" ? null : text.trim() };
}

/** The most suggested amounts a campaign may have: the API's own limit. */
export const MAX_SUGGESTED = maxItemsOf(updateCampaignBody.shape.suggestedAmounts) ?? 12;

/** How the editor words its fields' problems: money limits as money. */
export const CAMPAIGN_FIELD_WORDS: Record<string, FieldWords> = Object.fromEntries(
  [...MONEY_KEYS, "suggestedAmounts"].map((k) => [k, { money: true }]),
);

/**
 * The rules of the fields in `keys`, as typed: each is converted to the API's value, then checked
 * with the endpoint's own schema for that field (create or update); the other fields pass.
 */
export function campaignFormSchema(mode: "create" | "edit", keys: readonly FieldKey[], currency: string, timeZone: string) {
  const api = (mode === "create" ? createCampaignBody : updateCampaignBody).shape as Record<FieldKey, z.ZodType>;
  const field = (key: FieldKey) =>
    z
      .unknown()
      .transform((raw, ctx) => {
        const conv = toApiValue(key, raw, mode, currency, timeZone);
        if (conv.ok) return conv.value;
        for (const [path, message] of Object.entries(conv.errors)) {
          const rest = path
            .split(".")
            .slice(1)
            .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
          ctx.addIssue({ code: "custom", input: raw, path: rest, message });
        }
        return z.NEVER;
      })
      .pipe(api[key]);
  return z.object(Object.fromEntries(FIELD_ORDER.map((k) => [k, keys.includes(k) ? field(k) : z.unknown()])));
}

/** The request body: every applicable field (create) or the changed ones (edit). */
export function buildPayload(
  keys: FieldKey[],
  v: FormValues,
  mode: "create" | "edit",
  currency: string,
  timeZone: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const k of keys) {
    const conv = toApiValue(k, v[k], mode, currency, timeZone);
    if (!conv.ok || conv.value === undefined) continue;
    if (mode === "create" && conv.value === null) continue;
    body[k] = conv.value;
  }
  return body;
}

/** The field a (possibly dotted) error key belongs to. */
export function fieldOf(errorKey: string): string {
  return errorKey.split(".")[0];
}

/** The API's answer when another campaign of the organization has the address (a 409 without field details). */
export const SLUG_TAKEN = "Campaign slug is already taken in this organization";

/** Each field's first error as a flat map of dotted keys ("suggestedAmounts.2"), the way the form shows them. */
export function flatErrors(errors: FieldErrors<FormValues>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of FIELD_ORDER) {
    const e = errors[key] as
      | { message?: string; root?: { message?: string } }
      | (({ message?: string } | undefined)[] & { root?: { message?: string } })
      | undefined;
    if (!e) continue;
    if (Array.isArray(e)) {
      e.forEach((item, i) => {
        if (item?.message) out[`${key}.${i}`] = item.message;
      });
      if (e.root?.message) out[key] = e.root.message;
    } else if (e.message) out[key] = e.message;
    else if (e.root?.message) out[key] = e.root.message;
  }
  return out;
}

/** The error key of the first field in the form's order that has one. */
export function firstErrorKey(found: Record<string, string>): string | undefined {
  const keys = Object.keys(found);
  for (const f of FIELD_ORDER) {
    const k = keys.find((x) => fieldOf(x) === f);
    if (k) return k;
  }
  return keys[0];
}
