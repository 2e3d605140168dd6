"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { useForm, useWatch, type FieldErrors } from "react-hook-form";
import { issueResolver } from "@/components/forms/issue-resolver";
import { fieldTexts, type IssueTextOptions } from "@/components/forms/issue-text";
import { Button } from "@/components/ui/button";
import { CheckboxField, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { currencyDecimals, currencySymbol, formatMoney, minimumDonationMinor, minorToInput } from "@/lib/money";
import { MAX_TICKETS_PER_ORDER_LIMIT, type CampaignView } from "@/lib/schemas/campaigns";
import { slugify } from "@/lib/slug";
import { api } from "./api-client";
import {
  CAMPAIGN_FIELD_WORDS,
  FIELD_ORDER,
  SLUG_TAKEN,
  buildPayload,
  campaignFormSchema,
  defaultValues as newCampaignValues,
  fieldOf,
  isoToLocalInput,
  valuesFromCampaign,
  visibleKeys,
  type FieldKey,
  type FormValues,
} from "./campaign-form-model";
import { ColorField, SuggestedAmounts } from "./campaign-editor-fields";

const TYPE_OPTIONS = [
  { value: "DONATION", label: "Donation appeal" },
  { value: "PEER_TO_PEER", label: "Peer-to-peer" },
  { value: "EVENT", label: "Event with tickets" },
  { value: "MEMBERSHIP", label: "Membership (recurring)" },
];

type Props = {
  mode: "create" | "edit";
  orgSlug: string;
  currency: string;
  campaign: CampaignView | null;
  /** Peer-to-peer campaigns of the organization a fundraiser page can belong to. */
  parentOptions: { id: string; title: string }[];
  canEdit: boolean;
  /** `{donateBaseUrl}/donate/`: shown before the slug. */
  donatePrefix: string;
};

function Section({ id, title, hint, children }: { id: string; title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className="card form-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {hint ? <p className="section-hint">{hint}</p> : null}
      {children}
    </section>
  );
}

const noSubscription = () => () => {};
const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Each field's first error as a flat map of dotted keys ("suggestedAmounts.2"), the way the form shows them. */
function flatErrors(errors: FieldErrors<FormValues>): Record<string, string> {
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

/**
 * Create or edit a campaign: every field of the API's campaign, money typed in the organization's
 * currency (whole amounts only for zero-decimal ones) and sent as integer minor units, dates typed in local time and sent as ISO 8601. Each field is checked with
 * the API's own zod schema (react-hook-form) when it loses focus and again as it is corrected; on
 * submit the server's errors, worded from their codes, land next to their fields and focus moves
 * to the first one.
 */
export function CampaignEditor({ mode, orgSlug, currency, campaign, parentOptions, canEdit, donatePrefix }: Props) {
  const router = useRouter();
  const toast = useToast();
  const [defaultValues] = useState<FormValues>(() => (campaign ? valuesFromCampaign(campaign, currency) : newCampaignValues(currency)));
  const words: IssueTextOptions = { fields: CAMPAIGN_FIELD_WORDS, money: (cents) => formatMoney(cents, currency, { short: true }) };
  const form = useForm<FormValues, unknown, unknown>({
    defaultValues,
    resolver: issueResolver((v: FormValues) => campaignFormSchema(mode, visibleKeys(v, mode), currency), words),
    // Fields are checked as they lose focus and as a shown error is corrected (below), and all on submit.
    mode: "onSubmit",
    reValidateMode: "onSubmit",
    shouldFocusError: false,
  });
  const values = useWatch({ control: form.control, defaultValue: defaultValues }) as FormValues;
  const { errors: fieldErrors, isDirty } = form.formState;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState<null | "save" | "publish">(null);
  // Only the browser knows its zone: none while rendering on the server.
  const timeZone = useSyncExternalStore(noSubscription, browserTimeZone, () => null);
  const money = currencySymbol(currency);
  // Zero-decimal currencies (jpy, krw) are typed as whole amounts: a numeric keypad, no decimal point.
  const moneyMode = currencyDecimals(currency) === 0 ? "numeric" : "decimal";
  // An amount in the campaign's currency: its symbol before the field, the keypad its decimals need.
  const moneyInput = { inputMode: moneyMode, prefix: money } as const;
  const minimumGift = formatMoney(minimumDonationMinor(currency), currency, { short: true });
  const isDraft = !campaign || campaign.status === "DRAFT";

  // Dates are local times: only the browser knows its zone, so they are filled in after hydration.
  useEffect(() => {
    if (!campaign) return;
    form.reset({
      ...form.getValues(),
      startDate: isoToLocalInput(campaign.startDate),
      endDate: isoToLocalInput(campaign.endDate),
      scheduledPublishAt: isoToLocalInput(campaign.scheduledPublishAt),
    });
  }, [campaign, form]);

  // Leaving with unsaved changes asks first.
  useEffect(() => {
    if (!isDirty) return;
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener("beforeunload", onUnload);
    return () => window.removeEventListener("beforeunload", onUnload);
  }, [isDirty]);

  const visible = visibleKeys(values, mode);
  const errors = flatErrors(fieldErrors);

  function set<K extends keyof FormValues>(field: K, value: FormValues[K]) {
    const shown = Object.keys(errors).some((k) => fieldOf(k) === field);
    form.setValue(field, value as never, { shouldDirty: true });
    // A page that stops being peer-to-peer stops belonging to a peer-to-peer campaign.
    if (field === "type" && value !== "PEER_TO_PEER" && form.getValues("parentCampaignId")) {
      form.setValue("parentCampaignId", "", { shouldDirty: true });
    }
    if (shown || typeof value === "boolean" || field === "type") void form.trigger(field);
  }

  const blur = (field: FieldKey) => () => void form.trigger(field);

  function focusField(key: string) {
    const field = fieldOf(key);
    const el =
      document.getElementById(`cf-${key.replace(/\./g, "-")}`) ??
      document.getElementById(`cf-${field}`) ??
      document.getElementById(`cf-${field}-0`);
    el?.focus();
  }

  function firstErrorKey(found: Record<string, string>): string | undefined {
    const keys = Object.keys(found);
    for (const f of FIELD_ORDER) {
      const k = keys.find((x) => fieldOf(x) === f);
      if (k) return k;
    }
    return keys[0];
  }

  async function submit(e: FormEvent, publish = false) {
    e.preventDefault();
    if (!canEdit || busy) return;
    setFormErrors([]);
    const v = form.getValues();
    const shownKeys = visibleKeys(v, mode);
    // What differs from the campaign as loaded (or last saved) is what a PATCH sends.
    const saved = form.formState.defaultValues ?? {};
    const changed = (k: FieldKey) => JSON.stringify(v[k]) !== JSON.stringify(saved[k]);
    const keys = mode === "create" ? shownKeys : shownKeys.filter(changed);
    if (mode === "edit" && keys.length === 0) {
      toast.show("No changes to save");
      return;
    }
    form.clearErrors();
    if (!(await form.trigger(keys))) {
      const first = firstErrorKey(flatErrors(form.formState.errors));
      if (first) focusField(first);
      return;
    }
    const body = buildPayload(keys, v, mode, currency);
    if (publish) body.status = "ACTIVE";

    setBusy(publish ? "publish" : "save");
    const res =
      mode === "create"
        ? await api<CampaignView>("POST", `/api/orgs/${encodeURIComponent(orgSlug)}/campaigns`, body)
        : await api<CampaignView>("PATCH", `/api/campaigns/${encodeURIComponent(campaign!.id)}`, body);
    if (res.ok) {
      form.reset(form.getValues());
      if (mode === "create") {
        toast.show(publish ? `“${res.data.title}” is live` : `Draft “${res.data.title}” created`);
        router.push(`/dashboard/${orgSlug}/campaigns/${res.data.id}`);
        return;
      }
      setBusy(null);
      toast.show("Changes saved");
      router.refresh();
      return;
    }
    setBusy(null);
    const texts = fieldTexts(res.fieldErrors, res.codes, words);
    if (res.status === 409 && res.error === SLUG_TAKEN) texts.slug = "Another campaign of this organization uses this address";
    const placed = Object.fromEntries(Object.entries(texts).filter(([k]) => (FIELD_ORDER as string[]).includes(fieldOf(k))));
    const unplaced = Object.entries(texts)
      .filter(([k]) => !(k in placed))
      .map(([k, m]) => `${k}: ${m}`);
    for (const [k, message] of Object.entries(placed)) form.setError(k as FieldKey, { type: "server", message });
    const messages = [...res.formErrors, ...unplaced];
    if (Object.keys(placed).length === 0) messages.unshift(res.error);
    setFormErrors(messages);
    const first = firstErrorKey(placed);
    if (first) focusField(first);
    else document.getElementById("cf-form-errors")?.focus();
  }

  const err = (key: string) => errors[key] ?? null;
  const has = (k: FieldKey) => visible.includes(k);
  const errorCount = Object.keys(errors).length;

  const text = (key: FieldKey & keyof FormValues) => ({
    id: `cf-${key}`,
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    onBlur: blur(key),
    error: err(key),
  });
  const check = (key: FieldKey & keyof FormValues) => ({
    id: `cf-${key}`,
    checked: values[key] as boolean,
    onChange: (e: { target: { checked: boolean } }) => set(key, e.target.checked as never),
    error: err(key),
  });
  const dateHint = timeZone ? `Your local time (${timeZone.replace(/_/g, " ")}).` : "Your local time.";

  return (
    <form className="form" onSubmit={(e) => submit(e)} noValidate aria-label={mode === "create" ? "New campaign" : "Edit campaign"}>
      {formErrors.length > 0 ? (
        <div id="cf-form-errors" tabIndex={-1}>
          <Notice tone="error" live title={formErrors.length > 1 ? "The campaign could not be saved" : undefined}>
            {formErrors.length === 1 ? (
              <p>{formErrors[0]}</p>
            ) : (
              <ul style={{ margin: 0, paddingLeft: 18 }}>
                {formErrors.map((m) => (
                  <li key={m}>{m}</li>
                ))}
              </ul>
            )}
          </Notice>
        </div>
      ) : null}
      {!canEdit ? (
        <Notice tone="info">
          <p>You can view this campaign. Changing it needs the Admin or Owner role.</p>
        </Notice>
      ) : null}

      <fieldset className="plain form" disabled={!canEdit}>
        <legend className="sr-only">Campaign details</legend>

        <Section id="cs-basics" title="Basics">
          <TextField {...text("title")} label="Title" required maxLength={400} hint="Up to 140 characters. Donors see it first." />
          <TextField
            {...text("slug")}
            label="Address"
            prefix={<span title={donatePrefix}>…/donate/</span>}
            autoCapitalize="none"
            spellCheck={false}
            placeholder={mode === "create" ? slugify(values.title, 80) || "winter-appeal" : undefined}
            onChange={(e) => set("slug", e.target.value.toLowerCase())}
            hint={
              mode === "create"
                ? "Lower-case letters, digits and hyphens. Leave empty to make one from the title."
                : "Changing it breaks links you already shared."
            }
          />
          <div className="form-grid">
            <SelectField
              {...text("type")}
              label="Type"
              options={TYPE_OPTIONS}
              disabled={!isDraft}
              hint={isDraft ? undefined : "The type can only change while the campaign is a draft."}
            />
            {has("parentCampaignId") ? (
              <SelectField
                {...text("parentCampaignId")}
                label="Part of"
                options={[
                  { value: "", label: "None: this is a main campaign" },
                  ...parentOptions.map((p) => ({ value: p.id, label: p.title })),
                ]}
                hint="A fundraiser's own page belongs to a main peer-to-peer campaign; its gifts count toward it."
              />
            ) : null}
          </div>
          <TextAreaField
            {...text("description")}
            label="Description"
            optional
            rows={6}
            hint={`Plain text; HTML is removed. ${values.description.length.toLocaleString("en-US")} / 20,000 characters.`}
          />
        </Section>

        <Section id="cs-amounts" title="Goal and amounts">
          <div className="form-grid">
            <TextField {...text("goalAmountCents")} label="Goal" optional {...moneyInput} placeholder="5000" />
            <TextField
              {...text("minAmountCents")}
              label="Minimum gift"
              optional
              {...moneyInput}
              placeholder={minorToInput(minimumDonationMinor(currency), currency)}
              hint={`At least ${minimumGift}.`}
            />
          </div>
          <CheckboxField {...check("showGoal")} label="Show the goal and progress on the donate page" />
          <SuggestedAmounts
            amounts={values.suggestedAmounts}
            money={money}
            inputMode={moneyMode}
            minimum={minimumGift}
            err={err}
            onChange={(list) => set("suggestedAmounts", list)}
            onBlur={blur("suggestedAmounts")}
          />
          <CheckboxField {...check("allowCustomAmount")} label="Let donors enter their own amount" />
          <CheckboxField
            {...check("allowRecurring")}
            label="Allow monthly and yearly gifts"
            hint={values.type === "MEMBERSHIP" ? "Memberships are recurring, so this must stay on." : undefined}
          />
        </Section>

        {has("ticketPriceCents") ? (
          <Section id="cs-event" title="Event tickets" hint="Each ticket is one gift of the ticket price; tickets are never oversold.">
            <div className="form-grid">
              <TextField {...text("ticketPriceCents")} label="Ticket price" required {...moneyInput} />
              <TextField
                {...text("ticketCapacity")}
                label="Capacity"
                required
                inputMode="numeric"
                suffix="tickets"
                hint={campaign ? `${campaign.ticketsSold} sold so far.` : undefined}
              />
              <TextField
                {...text("maxTicketsPerOrder")}
                label="Tickets per order"
                required
                inputMode="numeric"
                suffix="tickets"
                hint={`How many tickets one donor may buy at once (1 to ${MAX_TICKETS_PER_ORDER_LIMIT}).`}
              />
            </div>
          </Section>
        ) : null}

        <Section id="cs-matching" title="Matching" hint="A sponsor matches gifts up to a budget; donors see it on the donate page.">
          <CheckboxField {...check("matchingEnabled")} label="Gifts are matched" />
          {has("matchingOrgName") ? (
            <>
              <TextField {...text("matchingOrgName")} label="Matched by" optional placeholder="Harbor Credit Union" />
              <div className="form-grid">
                <TextField
                  {...text("matchingMaxCents")}
                  label="Matching budget"
                  optional
                  {...moneyInput}
                  hint="Leave empty for no limit."
                />
                <TextField
                  {...text("matchingRatioPct")}
                  label="Match ratio"
                  required
                  inputMode="numeric"
                  suffix="%"
                  hint="100% matches one-for-one; 200% doubles each gift."
                />
              </div>
            </>
          ) : null}
        </Section>

        <Section id="cs-schedule" title="Dates">
          <div className="form-grid">
            <TextField {...text("startDate")} type="datetime-local" label="Starts" optional hint={dateHint} />
            <TextField {...text("endDate")} type="datetime-local" label="Ends" optional hint="The campaign ends by itself at this time." />
          </div>
          {has("scheduledPublishAt") ? (
            <TextField
              {...text("scheduledPublishAt")}
              type="datetime-local"
              label="Publish automatically at"
              optional
              hint="Saved as a draft, then published at this time (within a minute)."
            />
          ) : null}
        </Section>

        <Section id="cs-look" title="Page and media">
          <TextField {...text("coverImageUrl")} type="url" label="Cover image URL" optional placeholder="https://" />
          <TextField {...text("videoUrl")} type="url" label="Video URL" optional placeholder="https://" />
          <ColorField value={values.color} error={err("color")} onChange={(v) => set("color", v)} onBlur={blur("color")} />
          <CheckboxField
            {...check("showDonorRoll")}
            label="Show recent donors on the donate page"
            hint="First names only, or “Anonymous”."
          />
        </Section>
      </fieldset>

      {canEdit ? (
        <div className="form-actions">
          <span className="status-msg" role="status">
            {errorCount > 0
              ? `${errorCount} field${errorCount > 1 ? "s" : ""} need${errorCount > 1 ? "" : "s"} attention`
              : mode === "edit" && isDirty
                ? "Unsaved changes"
                : ""}
          </span>
          {mode === "create" ? (
            <>
              <Button type="submit" variant="secondary" loading={busy === "save"} disabled={busy !== null}>
                Save draft
              </Button>
              <Button loading={busy === "publish"} disabled={busy !== null} onClick={(e) => submit(e as unknown as FormEvent, true)}>
                Create and publish
              </Button>
            </>
          ) : (
            <Button type="submit" loading={busy === "save"} disabled={busy !== null}>
              Save changes
            </Button>
          )}
        </div>
      ) : null}
    </form>
  );
}
