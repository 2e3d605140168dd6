"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { useForm, useWatch } from "react-hook-form";
import { issueResolver } from "@/components/forms/issue-resolver";
import { fieldTexts, type IssueTextOptions } from "@/components/forms/issue-text";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { currencyDecimals, currencySymbol, formatMoney, minimumDonationMinor, minorToInput } from "@/lib/money";
import type { CampaignView } from "@/lib/schemas/campaigns";
import { api } from "./api-client";
import {
  CAMPAIGN_FIELD_WORDS,
  FIELD_ORDER,
  SLUG_TAKEN,
  buildPayload,
  campaignFormSchema,
  defaultValues as newCampaignValues,
  fieldOf,
  firstErrorKey,
  flatErrors,
  valuesFromCampaign,
  visibleKeys,
  type FieldKey,
  type FormValues,
} from "./campaign-form-model";
import { AmountsSection } from "./campaign-sections/amounts";
import { AppearanceSection } from "./campaign-sections/appearance";
import { BasicsSection } from "./campaign-sections/basics";
import { EventSection } from "./campaign-sections/event";
import { SupportersSection } from "./campaign-sections/supporters";
import { MatchingSection } from "./campaign-sections/matching";
import { ScheduleSection } from "./campaign-sections/schedule";
import type { CampaignFields, MoneyInput } from "./campaign-sections/section";

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
  /** The organization's time zone: dates are typed and shown in it. */
  timeZone: string;
};

/**
 * Create or edit a campaign: every field of the API's campaign, in sections (campaign-sections/),
 * money typed in the organization's currency (whole amounts only for zero-decimal ones) and sent
 * as integer minor units, dates typed in the organization's time zone and sent as ISO 8601. Each field is checked
 * with the API's own zod schema (react-hook-form) when it loses focus and again as it is
 * corrected; on submit the server's errors, worded from their codes, land next to their fields
 * and focus moves to the first one.
 */
export function CampaignEditor({ mode, orgSlug, currency, campaign, parentOptions, canEdit, donatePrefix, timeZone }: Props) {
  const router = useRouter();
  const toast = useToast();
  const [defaultValues] = useState<FormValues>(() =>
    campaign ? valuesFromCampaign(campaign, currency, timeZone) : newCampaignValues(currency),
  );
  const words: IssueTextOptions = { fields: CAMPAIGN_FIELD_WORDS, money: (cents) => formatMoney(cents, currency, { short: true }) };
  const form = useForm<FormValues, unknown, unknown>({
    defaultValues,
    resolver: issueResolver((v: FormValues) => campaignFormSchema(mode, visibleKeys(v, mode), currency, timeZone), words),
    // Fields are checked as they lose focus and as a shown error is corrected (below), and all on submit.
    mode: "onSubmit",
    reValidateMode: "onSubmit",
    shouldFocusError: false,
  });
  const values = useWatch({ control: form.control, defaultValue: defaultValues }) as FormValues;
  const { errors: fieldErrors, isDirty } = form.formState;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState<null | "save" | "publish">(null);
  const money: MoneyInput = {
    symbol: currencySymbol(currency),
    inputMode: currencyDecimals(currency) === 0 ? "numeric" : "decimal",
    minimum: formatMoney(minimumDonationMinor(currency), currency, { short: true }),
    minimumInput: minorToInput(minimumDonationMinor(currency), currency),
  };
  const isDraft = !campaign || campaign.status === "DRAFT";

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
    const body = buildPayload(keys, v, mode, currency, timeZone);
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
  const errorCount = Object.keys(errors).length;
  const fields: CampaignFields = {
    values,
    text: (key) => ({
      id: `cf-${key}`,
      value: values[key] as string,
      onChange: (e) => set(key, e.target.value as never),
      onBlur: blur(key),
      error: err(key),
    }),
    check: (key) => ({
      id: `cf-${key}`,
      checked: values[key] as boolean,
      onChange: (e) => set(key, e.target.checked as never),
      error: err(key),
    }),
    err,
    has: (k) => visible.includes(k),
    set,
    blur,
  };

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

        <BasicsSection fields={fields} mode={mode} isDraft={isDraft} donatePrefix={donatePrefix} parentOptions={parentOptions} />
        <SupportersSection fields={fields} />
        <AmountsSection fields={fields} money={money} />
        <EventSection fields={fields} money={money} ticketsSold={campaign ? campaign.ticketsSold : null} />
        <MatchingSection fields={fields} money={money} />
        <ScheduleSection fields={fields} timeZone={timeZone} />
        <AppearanceSection fields={fields} />
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
