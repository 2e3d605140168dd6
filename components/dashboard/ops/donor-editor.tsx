"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api, firstErrors } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";

export type DonorFormValues = {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  tags: string;
  emailOptIn: boolean;
};

type TextKey = Exclude<keyof DonorFormValues, "emailOptIn">;
const ADDRESS_KEYS = ["line1", "line2", "city", "region", "postalCode", "country"] as const;

/** The API's field names (`address.city`, `tags.3`) → this form's inputs. */
function inputFor(field: string): TextKey | "emailOptIn" | null {
  const [head, sub] = field.split(".");
  if (head === "address") return (sub as TextKey) ?? "line1";
  if (head === "tags") return "tags";
  return ["firstName", "lastName", "email", "phone", "emailOptIn"].includes(head) ? (head as TextKey) : null;
}

const splitTags = (s: string) =>
  s
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * Staff edit a donor (PATCH /api/donors/:id): names, email, phone, postal address, tags (comma
 * separated) and email consent. Only changed fields are sent; each refusal shows under its field
 * and the first one takes the focus. An address is sent whole, or cleared when every line is empty.
 */
export function DonorEditor({
  donorId,
  initial,
  countries,
  canEdit,
}: {
  donorId: string;
  initial: DonorFormValues;
  countries: { value: string; label: string }[];
  canEdit: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof DonorFormValues, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function body(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const k of ["firstName", "lastName", "email", "phone"] as const) {
      // A donor without email (an offline gift) keeps none until staff type one.
      if (values[k] !== saved[k] && !(k === "email" && values[k].trim() === "" && saved.email === "")) {
        out[k] = k === "email" ? values[k].trim() : values[k].trim() || null;
      }
    }
    if (ADDRESS_KEYS.some((k) => values[k] !== saved[k])) {
      const empty = ADDRESS_KEYS.every((k) => values[k].trim() === "");
      out.address = empty ? null : Object.fromEntries(ADDRESS_KEYS.map((k) => [k, values[k].trim() || null]));
    }
    if (values.tags !== saved.tags) out.tags = splitTags(values.tags);
    if (values.emailOptIn !== saved.emailOptIn) out.emailOptIn = values.emailOptIn;
    return out;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const patch = body();
    if (Object.keys(patch).length === 0) return;
    setBusy(true);
    const res = await api("PATCH", `/api/donors/${encodeURIComponent(donorId)}`, patch);
    setBusy(false);
    if (res.ok) {
      setErrors({});
      setSaved(values);
      toast.show("Donor saved");
      router.refresh();
      return;
    }
    if (res.code === "donor_email_taken") {
      setErrors({ email: "Another donor has this email: merge the two records instead" });
      document.getElementById("de-email")?.focus();
      return;
    }
    const found: Partial<Record<keyof DonorFormValues, string>> = {};
    for (const [field, message] of Object.entries(firstErrors(res.fieldErrors))) {
      const key = inputFor(field);
      if (key && !found[key]) found[key] = message;
    }
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(`de-${first}`)?.focus();
    else setFormError(res.error);
  }

  const text = (k: TextKey) => ({
    id: `de-${k}`,
    value: values[k],
    error: errors[k],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value })),
  });

  return (
    <form className="form" onSubmit={submit} noValidate aria-labelledby="donor-details-title">
      {formError ? (
        <Notice tone="error" live>
          {formError}
        </Notice>
      ) : null}
      <fieldset className="plain form" disabled={!canEdit || busy}>
        <legend className="sr-only">Contact details</legend>
        <div className="form-grid">
          <TextField {...text("firstName")} label="First name" optional autoComplete="off" />
          <TextField {...text("lastName")} label="Last name" optional autoComplete="off" />
          {saved.email === "" ? (
            <TextField {...text("email")} label="Email" type="email" optional autoComplete="off" />
          ) : (
            <TextField {...text("email")} label="Email" type="email" required autoComplete="off" />
          )}
          <TextField {...text("phone")} label="Phone" type="tel" optional autoComplete="off" />
        </div>
      </fieldset>
      <fieldset className="plain form" disabled={!canEdit || busy}>
        <legend>Postal address</legend>
        <div className="form-grid">
          <TextField {...text("line1")} label="Address line 1" autoComplete="off" />
          <TextField {...text("line2")} label="Address line 2" optional autoComplete="off" />
          <TextField {...text("city")} label="City" autoComplete="off" />
          <TextField {...text("region")} label="State, province or county" optional autoComplete="off" />
          <TextField {...text("postalCode")} label="Postal code" optional autoComplete="off" />
          <SelectField {...text("country")} label="Country" options={[{ value: "", label: "Choose a country" }, ...countries]} />
        </div>
      </fieldset>
      <fieldset className="plain form" disabled={!canEdit || busy}>
        <legend className="sr-only">Tags and consent</legend>
        <TextField
          {...text("tags")}
          label="Tags"
          optional
          hint="Separated by commas, e.g. gala-2026, board. Up to 50, each up to 40 characters."
        />
        <CheckboxField
          id="de-emailOptIn"
          label="Agreed to receive emails from the organization"
          checked={values.emailOptIn}
          error={errors.emailOptIn}
          onChange={(e) => setValues((v) => ({ ...v, emailOptIn: e.target.checked }))}
        />
      </fieldset>
      {canEdit ? (
        <div className="form-actions">
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : "Save donor"}
          </Button>
        </div>
      ) : (
        <p className="small muted">Only admins can edit donors.</p>
      )}
    </form>
  );
}
