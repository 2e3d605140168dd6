"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { SubmitRow } from "@/components/ui/button";
import { CheckboxField, SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { LOCALES, LOCALE_NAMES } from "@/lib/i18n/locales";
import { timeZoneLabel } from "@/lib/time-zone";
import { api, firstErrors } from "./api-client";
import { useOrgFieldCheck } from "./use-field-check";

const FIELDS = [
  "name",
  "notificationEmail",
  "legalName",
  "taxId",
  "address",
  "receiptStatement",
  "logoUrl",
  "color",
  "defaultLocale",
  "timeZone",
] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string> & { donorErasureNeedsApproval: boolean };
type AnyField = Field | "donorErasureNeedsApproval";

function apiValue(field: Field, raw: string): string | null {
  if (field === "name") return raw;
  return raw.trim() === "" ? null : raw.trim();
}

/** PATCH /api/orgs/:slug with the fields that changed (ADMIN); read-only for members. */
export function OrgSettingsForm({
  orgSlug,
  initial,
  canEdit,
  timeZones,
}: {
  orgSlug: string;
  initial: Values;
  canEdit: boolean;
  /** The IANA time zones to choose from (the server's list, so the page renders the same on both sides). */
  timeZones: string[];
}) {
  const router = useRouter();
  const toast = useToast();
  const [values, setValues] = useState<Values>(initial);
  const [saved, setSaved] = useState<Values>(initial);
  const [errors, setErrors] = useState<Partial<Record<AnyField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const dirty: AnyField[] = [
    ...FIELDS.filter((f) => values[f] !== saved[f]),
    ...(values.donorErasureNeedsApproval !== saved.donorErasureNeedsApproval ? (["donorErasureNeedsApproval"] as const) : []),
  ];
  const checkField = useOrgFieldCheck("update");

  function recheck(field: Field, raw: string) {
    void checkField(field, apiValue(field, raw), (message) => setErrors((e) => ({ ...e, [field]: message ?? undefined })));
  }

  function set(field: Field, v: string) {
    setValues((p) => ({ ...p, [field]: v }));
    if (errors[field]) recheck(field, v);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (dirty.length === 0) return;
    setBusy(true);
    const body = Object.fromEntries(
      dirty.map((f) => [f, f === "donorErasureNeedsApproval" ? values.donorErasureNeedsApproval : apiValue(f, values[f])]),
    );
    const res = await api("PATCH", `/api/orgs/${encodeURIComponent(orgSlug)}`, body);
    setBusy(false);
    if (res.ok) {
      setSaved(values);
      toast.show("Organization settings saved");
      router.refresh();
      return;
    }
    const fe = firstErrors(res.fieldErrors) as Partial<Record<AnyField, string>>;
    setErrors(fe);
    const first = [...FIELDS, "donorErasureNeedsApproval" as const].find((f) => fe[f]);
    if (first) document.getElementById(`os-${first}`)?.focus();
    else setFormError(res.error);
  }

  const common = (f: Field) => ({
    id: `os-${f}`,
    value: values[f],
    error: errors[f],
    onChange: (e: { target: { value: string } }) => set(f, e.target.value),
    onBlur: () => recheck(f, values[f]),
  });

  return (
    <form className="form" onSubmit={submit} noValidate>
      {formError ? (
        <Notice tone="error" live>
          {formError}
        </Notice>
      ) : null}
      <fieldset className="plain form" disabled={!canEdit}>
        <legend className="sr-only">Organization details</legend>
        <div className="form-grid">
          <TextField {...common("name")} label="Name" required autoComplete="organization" />
          <TextField
            {...common("notificationEmail")}
            label="Notification email"
            type="email"
            optional
            hint="New-donation and dispute alerts."
          />
        </div>
        <div className="form-grid">
          <TextField {...common("legalName")} label="Legal name" optional hint="Printed on receipts." />
          <TextField {...common("taxId")} label="Tax ID" optional hint="e.g. an EIN, printed on receipts." />
        </div>
        <TextAreaField
          {...common("address")}
          label="Postal address"
          optional
          rows={3}
          hint="Printed on year-end statements, with its line breaks."
          autoComplete="street-address"
        />
        <TextAreaField
          {...common("receiptStatement")}
          label="Receipt statement"
          optional
          rows={3}
          hint="Printed at the foot of year-end statements, e.g. “No goods or services were provided in exchange for these gifts.”"
        />
        <div className="form-grid">
          <TextField {...common("logoUrl")} label="Logo URL" type="url" optional placeholder="https://" />
          <TextField {...common("color")} label="Brand colour" optional placeholder="#1a7f5a" hint="Hex, like #1a7f5a." />
        </div>
        <SelectField
          {...common("defaultLocale")}
          label="Donors' default language"
          options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
          hint="Donate pages, donor accounts and donor emails use the donor's browser language when it is English, Spanish, French or German; otherwise this one."
        />
        <SelectField
          {...common("timeZone")}
          label="Time zone"
          options={timeZones.map((z) => ({ value: z, label: timeZoneLabel(z) }))}
          hint="Campaign and event dates are shown in it on donate pages, in emails and on receipts; reports' days start at its midnight."
        />
        <CheckboxField
          id="os-donorErasureNeedsApproval"
          label="Donors' erasure requests need an admin's approval"
          hint="Off: a donor who asks to have their personal data erased is erased at once. On: the request waits on the Donors page."
          checked={values.donorErasureNeedsApproval}
          error={errors.donorErasureNeedsApproval}
          onChange={(e) => setValues((p) => ({ ...p, donorErasureNeedsApproval: e.target.checked }))}
        />
      </fieldset>
      {canEdit ? (
        <SubmitRow
          loading={busy}
          disabled={dirty.length === 0}
          aside={dirty.length > 0 ? <span className="small muted">Unsaved changes</span> : null}
        >
          Save changes
        </SubmitRow>
      ) : null}
    </form>
  );
}
